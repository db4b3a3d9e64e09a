"""Match logs, format 2: an untouched log replays; every kind of tampering is refused naming its
line, or reads as unfinished; a live log tells nothing of an unrevealed secret; bots draw from
the seed and the ply, so a resumed match continues exactly as it would have; format 1 still
replays; a notation with U+2028 survives the round trip."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from rulecraft.runtime.logs import _chain, FORMAT, log_lines, read_log, replay, write_log
from rulecraft.runtime.match import Match, seat_bots
from rulecraft.runtime.seeding import chance_outcome
from rulecraft.errors import RulecraftError

from helpers import REPO, invoke, load_game
from test_cli import assert_clean_failure


def records_of(path) -> list[dict]:
    """The JSON records of a log file, header first."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_records(path, records, *, rechain: bool) -> None:
    """Write records as a log; with ``rechain`` recompute every chain hash, as a forger would."""
    chain = FORMAT
    lines = []
    for record in (dict(r) for r in records):
        if rechain:
            chain = record["chain"] = _chain(chain, record)
        lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def refused(tmp_path, records, *fragments, rechain=True, game=None, resume_game=None):
    """Write ``records`` and check that both replay and resume refuse them naming ``fragments``
    (each a text of the message; the path is prefixed to a fragment starting with ':')."""
    path = tmp_path / "tampered.log"
    write_records(path, records, rechain=rechain)
    wanted = [f"{path}{f}" if f.startswith(":") else f for f in fragments]
    assert_clean_failure(invoke("replay", path, *(("--game", game) if game else ())), *wanted)
    assert_clean_failure(invoke("play", resume_game or records[0]["game"], "--resume", path), *wanted)


@pytest.fixture(scope="module")
def pig_log(tmp_path_factory):
    """A finished Pig match (seed 3, target 20): sampled rolls, a closing line."""
    path = tmp_path_factory.mktemp("logs") / "pig.log"
    result = invoke("play", "pig", "--seed", 3, "-O", "target=20", "--bot", "random", "--log", path)
    assert result.exit_code == 0, result.output
    return path


def ply_lines(records) -> list[int]:
    """Indices (0-based lines) of the ply records."""
    return [i for i, r in enumerate(records) if "ply" in r]


# ---------- an untouched log ----------
def test_an_untouched_log_replays_and_says_the_game_is_over(pig_log):
    records = records_of(pig_log)
    head, closing = records[0], records[-1]
    assert (head["format_version"], head["chance"], head["seed"]) == (2, "sampled", 3)
    assert "end" in closing and closing["end"] == len(ply_lines(records))
    assert any(r.get("actor") == "chance" for r in records)
    result = invoke("replay", pig_log)
    assert result.exit_code == 0, result.output
    assert f"{closing['end']} plies replayed and verified; game over, returns" in result.output


def test_the_file_is_ascii_and_every_line_is_chained(pig_log):
    data = pig_log.read_bytes()
    assert data.isascii()
    chain = FORMAT
    for record in records_of(pig_log):
        chain = _chain(chain, record)
        assert record["chain"] == chain


# ---------- tampering ----------
def test_a_changed_roll_is_refused_naming_its_line(pig_log, tmp_path):
    records = records_of(pig_log)
    index = next(i for i, r in enumerate(records) if r.get("actor") == "chance")
    roll = records[index]
    roll["action"] = (roll["action"] + 1) % 6
    roll["notation"] = f"d6={roll['action'] + 1}"
    # a forger recomputes every chain: the seed still fixes the roll
    refused(tmp_path, records, f":{index + 1}: ply {roll['ply']}: the roll d6={roll['action'] + 1} "
            "is not the one the match seed 3 gives", "RC507")
    # without recomputing, the chain breaks at that very line
    refused(tmp_path, records, f":{index + 1}: the hash chain breaks at this line", "RC506",
            rechain=False)


def test_a_changed_seed_is_refused_at_the_first_roll_it_changes(pig_log, tmp_path):
    records = records_of(pig_log)
    records[0]["seed"] = 4
    game = load_game("pig", {"target": 20})
    match = Match(game, 3)
    first_differing = None
    for index in ply_lines(records):
        state = match.state
        if state.is_chance_node() and chance_outcome(state, 4) != records[index]["action"]:
            first_differing = index
            break
        match.apply(records[index]["action"])
    assert first_differing is not None
    refused(tmp_path, records, f":{first_differing + 1}: ply {records[first_differing]['ply']}: the roll",
            "is not the one the match seed 4 gives", "RC507")
    refused(tmp_path, records, ":1: the hash chain breaks", rechain=False)


def test_a_log_of_another_spec_revision_is_refused_unless_allowed(pig_log, tmp_path):
    folder = tmp_path / "pig-revised"
    folder.mkdir()
    text = (REPO / "examples" / "pig" / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text + "\n# a new revision: same rules\n", encoding="utf-8")
    logged = records_of(pig_log)[0]["spec"]
    revised = load_game(folder).rules.spec_hash
    assert revised != logged
    result = invoke("replay", pig_log, "--game", folder)
    assert_clean_failure(result, f"{pig_log}:1:", f"revision {logged}", f"revision {revised}",
                         "--allow-revision", "RC505")
    assert_clean_failure(invoke("play", folder, "--resume", pig_log), "RC505", f"revision {revised}")
    allowed = invoke("replay", pig_log, "--game", folder, "--allow-revision")
    assert allowed.exit_code == 0 and "game over" in allowed.output, allowed.output


def test_a_revision_with_other_rules_is_blamed_on_the_revision(pig_log, tmp_path):
    folder = tmp_path / "pig-changed"
    folder.mkdir()
    text = (REPO / "examples" / "pig" / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("turn_total += last_roll", "turn_total += 2 * last_roll"),
                                      encoding="utf-8")
    result = invoke("replay", pig_log, "--game", folder, "--allow-revision")
    assert_clean_failure(result, "the state differs from the one the log recorded",
                         "the log was written under spec revision")


@pytest.mark.parametrize("how", ["inserted", "removed", "reordered"])
def test_an_inserted_removed_or_reordered_line_breaks_the_chain_there(pig_log, tmp_path, how):
    records = records_of(pig_log)
    line = 5                                          # 1-based: the fifth line of the file
    if how == "inserted":
        records.insert(line - 1, dict(records[line - 2]))
    elif how == "removed":
        del records[line - 1]
    else:
        records[line - 1], records[line] = records[line], records[line - 1]
    refused(tmp_path, records, f":{line}: the hash chain breaks at this line", "RC506", rechain=False)


def test_removed_lines_rechained_are_refused_by_the_rules(pig_log, tmp_path):
    records = records_of(pig_log)
    del records[3]                                   # a forger drops ply 3 and renumbers
    for number, index in enumerate(ply_lines(records), 1):
        records[index]["ply"] = number
    records[-1]["end"] -= 1
    path = tmp_path / "dropped.log"
    write_records(path, records, rechain=True)
    result = invoke("replay", path)
    assert result.exit_code == 1 and f"{path}:4: ply 3:" in result.output, result.output


@pytest.mark.parametrize("cut", [1, 4])
def test_a_cut_log_reads_as_unfinished_never_as_complete(pig_log, tmp_path, cut):
    records = records_of(pig_log)[:-cut]
    path = tmp_path / "cut.log"
    write_records(path, records, rechain=False)
    result = invoke("replay", path)
    assert result.exit_code == 0, result.output
    assert f"unfinished: the log ends at line {len(records)}" in result.output
    assert "game over" not in result.output
    if cut == 1:
        assert "without its closing line although the game is over there; it was cut" in result.output


def test_a_closing_line_before_the_end_is_refused(pig_log, tmp_path):
    records = records_of(pig_log)
    closing = records[-1]
    records = records[:-3]
    records.append({**closing, "end": len(ply_lines(records))})
    refused(tmp_path, records, f":{len(records)}: the closing line says the game ended")


def test_an_edited_action_gets_an_accurate_message(tmp_path):
    """Action 99999 is named as no action id, not by the notation the log gives it."""
    path = tmp_path / "tictactoe.log"
    assert invoke("play", "tictactoe", "--seed", 7, "--log", path).exit_code == 0
    records = records_of(path)
    records[2]["action"] = 99999
    refused(tmp_path, records, ":3: ply 2: action 99999 is no action id of tictactoe (0..8); "
            f"the log calls it '{records[2]['notation']}'")
    records = records_of(path)
    records[3]["notation"] = "Z9"
    refused(tmp_path, records, f":4: ply 3: the log writes 'Z9' for action {records[3]['action']}",
            "the line was edited")
    records = records_of(path)
    records[2]["action"] = records[1]["action"]
    refused(tmp_path, records, ":3: ply 2:", "is forbidden by rule 1: the square is already marked")
    records = records_of(path)
    records[1]["actor"] = "o"
    refused(tmp_path, records, ":2: ply 1: the log says o acted, but the rules give the turn to x")


def test_a_changed_die_in_a_chosen_log_is_blamed_on_the_edit_not_the_rules(tmp_path):
    game = load_game("pig", {"target": 20})
    match = Match(game, 1, chance="chosen")
    while not match.state.is_terminal():
        legal = match.state.legal_actions()
        match.apply(legal[-1] if match.is_chance() else legal[0])  # always a six, roll if allowed
    path = tmp_path / "chosen.log"
    write_log(match, str(path))
    records = records_of(path)
    assert records[0]["chance"] == "chosen"
    index = next(i for i, r in enumerate(records) if r.get("actor") == "chance")
    records[index]["action"], records[index]["notation"] = 4, "d6=5"
    refused(tmp_path, records, f":{index + 1}: ply {records[index]['ply']}: after d6=5 the state "
            "differs from the one the log recorded", "the line was edited (the spec is the revision "
            "the log was written under)")
    write_records(path, records_of(path), rechain=False)
    assert "game over" in invoke("replay", path).output


def test_a_sampled_match_refuses_an_outcome_the_seed_does_not_give():
    match = Match(load_game("pig"), 3)
    match.apply(0)
    wrong = (chance_outcome(match.state, 3) + 1) % 6
    with pytest.raises(RulecraftError) as refusal:
        match.apply(wrong)
    assert refusal.value.code == "RC407" and len(match.steps) == 1


def test_garbage_is_refused_naming_its_line(pig_log, tmp_path):
    lines = pig_log.read_text(encoding="utf-8").splitlines()
    for index, garbage, message in [(2, "{not json", "this line is not JSON"),
                                    (2, '{"ply": NaN}', "this line is not JSON (NaN is not a number"),
                                    (2, "[" * 100000 + "]" * 100000, "this line is not JSON"),
                                    (0, '{"format": "chess-pgn"}', "not a rulecraft log")]:
        path = tmp_path / "garbage.log"
        path.write_text("\n".join(lines[:index] + [garbage] + lines[index + 1:]) + "\n", encoding="utf-8")
        assert_clean_failure(invoke("replay", path), f"{path}:{index + 1}: {message}")
    records = records_of(pig_log)
    records[0]["format_version"] = 99
    write_records(path, records, rechain=True)
    assert_clean_failure(invoke("replay", path), f"{path}:1: log format version 99 is not supported")


def test_a_log_cannot_choose_the_file_that_is_read(pig_log, tmp_path):
    records = records_of(pig_log)
    records[0]["game"] = str(REPO / "examples" / "pig" / "game.yaml")
    path = tmp_path / "steering.log"
    write_records(path, records, rechain=True)
    assert_clean_failure(invoke("replay", path), "which is no game name", "give the game with --game")


def test_empty_binary_and_huge_logs_are_refused(tmp_path):
    empty, binary, huge = tmp_path / "empty.log", tmp_path / "binary.log", tmp_path / "huge.log"
    empty.write_text("")
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with huge.open("wb") as handle:
        handle.truncate((64 << 20) + 1)
    assert_clean_failure(invoke("replay", empty), f"{empty}: the file is empty")
    assert_clean_failure(invoke("replay", binary), f"{binary}: cannot read the log")
    assert_clean_failure(invoke("replay", huge), f"{huge}: the file is larger than 64 MiB")


# ---------- secrets ----------
def taktinen_after_home_secret(action: int) -> Match:
    """A taktinen match (seed 5) in which home has made its secret formation choice ``action``
    and away has not chosen yet: what a live log holds while away thinks."""
    match = Match(load_game("taktinen"), 5)
    match.apply(action)
    assert match.state.is_secret() and match.state.current_player() == 1
    return match


def public_fields(lines: list[str]) -> list[dict]:
    """The log's records without the commitments' and chains' random-looking digests."""
    return [{k: v for k, v in json.loads(line).items() if k not in ("secret", "chain")} for line in lines]


def test_no_field_of_a_live_log_tells_an_unrevealed_secret():
    """Trying every legal formation against the live log matches none: the full-state hash, the
    id, the notation and a nonce-less commitment of each appear nowhere, and the log's public
    fields are the same whichever formation was chosen."""
    game = load_game("taktinen")
    formations = game.new_initial_state().legal_actions()
    assert len(formations) >= 60
    chosen = formations[17]
    live = taktinen_after_home_secret(chosen)
    text = "\n".join(log_lines(live))
    assert f'"action": {chosen}' not in text
    public = public_fields(log_lines(live))
    for action in formations:
        trial = game.new_initial_state()
        trial.apply(action)
        guesses = {trial.hash(), game.action_notation(action),
                   hashlib.sha256(str(action).encode()).hexdigest(),
                   hashlib.sha256(f"rulecraft-secret//{action}".encode()).hexdigest()}
        assert not [guess for guess in guesses if guess in text], action
        assert public_fields(log_lines(taktinen_after_home_secret(action))) == public


def test_a_secret_is_opened_once_revealed_and_its_opening_is_checked(tmp_path):
    match = taktinen_after_home_secret(3)
    match.apply(5)                                      # away's formation: both are revealed
    path = tmp_path / "opened.log"
    write_log(match, str(path))
    records = records_of(path)
    openings = [r for r in records if "open" in r]
    assert [(r["open"], r["action"]) for r in openings] == [(1, 3), (2, 5)]
    assert all(re.fullmatch(r"\d+-\d+-\d+", r["notation"]) for r in openings)         # as 4-4-2
    assert invoke("replay", path).exit_code == 0
    index = records.index(openings[0])
    records[index]["action"] = 4
    refused(tmp_path, records, f":{index + 1}: this opening of ply 1 does not match its commitment "
            "at line 2", "RC508")


@pytest.mark.filterwarnings("ignore::getpass.GetPassWarning")   # the test's input is no terminal
def test_resuming_before_a_reveal_rederives_the_bot_and_asks_the_person_again(tmp_path):
    path = tmp_path / "secret.log"
    first = invoke("play", "taktinen", "--seed", 5, "--human", "away", "--log", path, input="q\n")
    assert first.exit_code == 0, first.output
    saved = records_of(path)
    assert [r.get("ply") for r in saved[1:]] == [1] and "secret" in saved[1]
    waiting = invoke("replay", path)
    assert "the secret choice of home at line 2 (ply 1) is not revealed yet" in waiting.output
    second = invoke("play", "taktinen", "--human", "away", "--resume", path, input="1\nq\n")
    assert second.exit_code == 0, second.output
    assert "was not revealed when the match was saved: it is made again" in second.output
    assert "away (secret choice, not shown as you type; ? for help)>" in second.output
    resumed = records_of(path)
    opened = {r["open"]: r["action"] for r in resumed if "open" in r}
    bot_alone = Match(load_game("taktinen"), 5)
    bot_alone.advance(seat_bots(bot_alone.game, "greedy"))
    assert opened[1] == bot_alone.steps[0].action            # the bot chose as it had
    assert opened[2] == bot_alone.state.legal_actions()[0]    # the person, asked again, chose 1


# ---------- bots draw from the seed and the ply ----------
@pytest.mark.parametrize("game,bot", [("pig", "random"), ("tictactoe", "greedy")])
def test_a_resumed_bot_match_continues_exactly_as_it_would_have(tmp_path, game, bot):
    whole = tmp_path / "whole.log"
    assert invoke("play", game, "--seed", 11, "--bot", bot, "--log", whole).exit_code == 0
    records = records_of(whole)
    cut = tmp_path / "cut.log"
    write_records(cut, records[:len(records) // 2], rechain=False)
    assert invoke("play", game, "--resume", cut).exit_code == 0          # the log names its bot
    assert cut.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")


# ---------- format 1 and round trips ----------
def format_1_log(path, game, seed: int) -> None:
    """Write a seeded random bot match of ``game`` as a format-1 log (as rulecraft 0.1.0 did)."""
    match = Match(game, seed)
    bots = seat_bots(game, "random")
    lines = [json.dumps({"format": FORMAT, "format_version": 1, "rulecraft": "0.1.0", "game": game.id,
                         "spec": game.rules.spec_hash, "options": game.rules.options, "seed": seed})]
    while not match.state.is_terminal():
        match.advance(bots)
        step = match.steps[-1]
        lines.append(json.dumps({"ply": len(match.steps), "actor": "chance" if step.actor < 0 else
                                 game.teams[step.actor], "action": step.action,
                                 "notation": step.notation, "hash": match.state.hash()}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_format_1_log_still_replays_and_resumes_as_format_2(tmp_path):
    path = tmp_path / "old.log"
    format_1_log(path, load_game("pig", {"target": 20}), 9)
    result = invoke("replay", path)
    assert result.exit_code == 0 and "game over" in result.output and "format 1" in result.output
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:-2]) + "\n", encoding="utf-8")
    assert invoke("play", "pig", "--resume", path).exit_code == 0
    resumed = records_of(path)
    assert resumed[0]["format_version"] == 2 and resumed[0]["chance"] == "sampled" and "end" in resumed[-1]
    records = [json.loads(line) for line in lines]
    records[3]["hash"] = "0" * 16
    write_records(path, records, rechain=False)
    assert_clean_failure(invoke("replay", path), f"{path}:4: ply 3:", "differs from the one the log recorded")


def test_a_notation_with_a_line_separator_round_trips(tmp_path):
    folder = tmp_path / "separator"
    folder.mkdir()
    text = (REPO / "examples" / "tictactoe" / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace('notation: "{square}"', 'notation: "mark\\u2028{square}"'),
                                      encoding="utf-8")
    assert "mark\u2028a1" in {n.lower() for _, n in load_game(folder).action_table()}
    path = tmp_path / "separator.log"
    assert invoke("play", folder, "--seed", 2, "--log", path).exit_code == 0
    assert path.read_bytes().isascii() and b"\\u2028" in path.read_bytes()
    log = read_log(str(path))
    assert "\u2028" in log.plies[0]["notation"]
    assert replay(load_game(folder), log).closed
