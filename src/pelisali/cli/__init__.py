"""The ``pelisali`` command."""
