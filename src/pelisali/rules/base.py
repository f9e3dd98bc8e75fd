"""The parts every rule file's schema is built of: strict frozen models, the section a
value comes from, and a name in the three languages. Kept apart from the table games'
schemas (:mod:`pelisali.rules.schema`) so that a kind of rule file with its own schema
(poker, slots, banked games, tournaments) loads without building theirs."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

Section = Annotated[str, Field(min_length=3, description="rulebook section this value comes from")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Names(Strict):
    fi: str
    sv: str
    en: str
