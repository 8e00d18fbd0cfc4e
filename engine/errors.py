"""The errors every layer raises, one hierarchy: the CLI maps each to its exit code."""


class UnusableInput(Exception):
    """Input the command cannot work with; the message says what and where."""

    exit_code = 2


class CampaignHasErrors(UnusableInput):
    """A campaign file that loads only as a draft: problems for its author to fix, as
    ``cardrogue check`` reports them (exit 1), not input that cannot be read (exit 2)."""

    exit_code = 1


class RejectedReplay(UnusableInput):
    """A replay file that is not a valid replay (truncated, not JSON, not the schema): it is
    rejected as any other failing replay is (exit 1), whether or not ``--campaign`` is given."""

    exit_code = 1
