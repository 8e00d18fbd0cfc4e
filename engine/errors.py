"""The errors every layer raises, one hierarchy: the CLI maps each to its exit code."""


class UnusableInput(Exception):
    """Input the command cannot work with; the message says what and where."""
