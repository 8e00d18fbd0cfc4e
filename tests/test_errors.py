"""One error hierarchy (engine/errors.py) and one printer (the CLI's ``main``): unusable input
exits 2, problems found and an illegal action exit 1, each as one line ``cardrogue: ...``."""

import pytest

from cardrogue.cli import main as cli
from cardrogue.engine.errors import (
    CampaignHasErrors,
    CardRogueError,
    IllegalAction,
    ProblemsFound,
    RejectedReplay,
    UnusableInput,
)
from cardrogue.engine.rules.actions import Action, ActionError


def test_the_hierarchy():
    assert issubclass(ActionError, IllegalAction) and issubclass(ActionError, ValueError)
    assert issubclass(IllegalAction, ProblemsFound)
    for kind in (CampaignHasErrors, RejectedReplay):
        # Problems found in the input, which the commands needing a playable input cannot use.
        assert issubclass(kind, ProblemsFound) and issubclass(kind, UnusableInput) and kind.exit_code == 1
    assert all(issubclass(k, CardRogueError) for k in (UnusableInput, ProblemsFound, IllegalAction))
    assert (UnusableInput.exit_code, ProblemsFound.exit_code, IllegalAction.exit_code) == (2, 1, 1)
    with pytest.raises(IllegalAction):
        Action.parse("dance wildly")


@pytest.mark.parametrize("error, code", [(UnusableInput("x.json: not there"), 2),
                                         (CampaignHasErrors("x.json: 2 errors"), 1),
                                         (ActionError("flip Q: not an action"), 1)])
def test_the_cli_prints_any_of_them_as_one_line_with_its_exit_code(error, code, monkeypatch, capsys, tmp_path):
    def command(args):
        raise error

    monkeypatch.setattr("cardrogue.cli.records.cmd_verify", command)  # the parser is built inside main
    assert cli.main(["verify", str(tmp_path / "r.json")]) == code
    out = capsys.readouterr()
    assert out.err == f"cardrogue: {error}\n" and out.out == ""

