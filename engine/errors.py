"""The errors every layer raises, one hierarchy; the CLI prints any of them as one line
(``cardrogue: message``, cli/common.py ``complain``) and exits with its ``exit_code``:

* :class:`UnusableInput` (exit 2): input the command cannot work with -- a file that is not
  there or not readable, not JSON, not a campaign, an option out of range;
* :class:`ProblemsFound` (exit 1): the input is readable, and problems were found in it --
  a campaign with errors (:class:`CampaignHasErrors`), a rejected replay
  (:class:`RejectedReplay`);
* :class:`IllegalAction` (exit 1): text that is not an action, or an action the rules do
  not allow now (``engine/rules/actions.py`` raises it as ``ActionError``).
"""


class CardRogueError(Exception):
    """Anything a command reports to its user as one line; the message says what and where."""

    exit_code = 2


class UnusableInput(CardRogueError):
    """Input the command cannot work with; the message says what and where."""

    exit_code = 2


class ProblemsFound(CardRogueError):
    """Input that could be read, with problems for its author to fix."""

    exit_code = 1


class CampaignHasErrors(ProblemsFound, UnusableInput):
    """A campaign file that loads only as a draft: problems for its author to fix, as
    ``cardrogue check`` reports them (exit 1), not input that cannot be read (exit 2).
    Still an :class:`UnusableInput` to the commands that need a playable campaign."""

    exit_code = 1


class RejectedReplay(ProblemsFound, UnusableInput):
    """A replay file that is not a valid replay (truncated, not JSON, not the schema): it is
    rejected as any other failing replay is (exit 1), whether or not ``--campaign`` is given."""

    exit_code = 1


class IllegalAction(ProblemsFound, ValueError):
    """Text that is not an action, or an action that is not legal now."""

    exit_code = 1
