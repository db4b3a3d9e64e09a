"""Taktinen jalkapallopeli (rules 1.0), written by hand: the benchmark peer of the generated engine.

An idiomatic, self-contained Python engine of the game that ``rulespecs/taktinen/game.yaml``
describes: the same rules, the same resolutions of the rulebook's open questions (the spec's
``open_questions``; RULES-BRIEF §1) and the same decision structure, so that driven by the same
choices it plays the same match as the engine rulecraft generates, step for step:

* the same decision points, in the same order, each owned by the same team (0 home, 1 away);
  the secret choices (formations, the goalkeeper's penalty die) are asked one team at a time,
  home first;
* the same chance nodes (every roll is a d6 whose outcome ``i`` is the face ``i + 1``), in the
  same order;
* the same legal action ids, sorted: the spec's fixed encoding, where each action owns a block
  of ids (``base`` + the mixed-radix number of its parameters, the first most significant; see
  ``rulecraft actions taktinen``);
* the same returns (+1 / 0 / -1 by goals) at the end of the match.

It imports nothing from rulecraft. The board is data (``ZONES``) from which adjacency, distances,
levels and halves are derived once per layout (:class:`Board`); a state is a handful of plain
lists and integers and clones with a few list copies. Source: the rulebook (seed
``000_c5f35dad659c8b19.txt``) as read in RULES-BRIEF §1, with the spec's resolutions.
"""

from __future__ import annotations

from collections import deque

CHANCE = -1
TERMINAL = -4
HOME, AWAY = 0, 1
NONE = -1

# ---------------------------------------------------------------- the board (§1.2, layout A/B)
# id, column (0 left flank, 1 centre, 2 right flank), place in the column from the home end,
# the bands of the pitch's length covered in layout A and in layout B (band 1 at the home goal
# line, 8 at the away goal line), and the goal-attempt modifier of the figure (§4.6).
ZONES = (
    ("C1", 1, 1, (1, 1), (1, 1), 0),
    ("L1", 0, 1, (1, 2), (1, 1), -4),
    ("R1", 2, 1, (1, 2), (1, 1), -4),
    ("C2", 1, 2, (2, 3), (2, 3), -2),
    ("L2", 0, 2, (3, 4), (2, 4), -6),
    ("R2", 2, 2, (3, 4), (2, 4), -6),
    ("C3", 1, 3, (4, 5), (4, 5), 0),
    ("L3", 0, 3, (5, 6), (5, 7), -6),
    ("R3", 2, 3, (5, 6), (5, 7), -6),
    ("C4", 1, 4, (6, 7), (6, 7), -2),
    ("L4", 0, 4, (7, 8), (8, 8), -4),
    ("R4", 2, 4, (7, 8), (8, 8), -4),
    ("C5", 1, 5, (8, 8), (8, 8), 0),
)
ZONE_NAMES = tuple(zone[0] for zone in ZONES)
ZONE_COUNT = len(ZONES)
CENTRE = ZONE_NAMES.index("C3")
OWN_AREA = (ZONE_NAMES.index("C1"), ZONE_NAMES.index("C5"))   # each team's penalty area

# ---------------------------------------------------------------- pieces (§2.1)
# The spec's roster order: the two goalkeepers first (home, away), then ten home outfield
# players, then ten away outfield players. A team's goalkeeper is the piece numbered like it.
PIECE_COUNT = 22
PIECE_TEAM = (HOME, AWAY) + (HOME,) * 10 + (AWAY,) * 10
TEAM_PIECES = ((0,) + tuple(range(2, 12)), (1,) + tuple(range(12, 22)))
TEAM_OUTFIELD = (TEAM_PIECES[HOME][1:], TEAM_PIECES[AWAY][1:])

# ---------------------------------------------------------------- tables (§3.1, §4.4, §4.6, §5)
FORMATION_CARDS = ((4, 4, 2), (4, 2, 4), (4, 3, 3), (4, 5, 1), (5, 3, 2), (3, 5, 2), (3, 4, 3), (5, 4, 1))
T1_SAME, T1_MORE, T1_TWICE, T1_FEWER, T1_HALF = 0, 1, 2, -1, -2
T1_PER_ZONE_BETWEEN = -2
SHOT_MORE, SHOT_FEWER, SHOT_KEEPER_ABSENT = 1, -1, 4
# T4: the ball value each restart sets
OPEN_PLAY, KICK_OFF, FREE_KICK, CORNER, PENALTY, GOAL_KICK = (
    "open_play", "kick_off", "free_kick", "corner", "penalty", "goal_kick")
RESTART_BALL_VALUE = {KICK_OFF: 3, FREE_KICK: 2, CORNER: 1, PENALTY: 2, GOAL_KICK: 2}
# T5: the lowest roll that scores, by kick side (left, centre, right) and the keeper's die
# (1 = dive left, 2-5 = stay, 6 = dive right)
PENALTY_NEEDS = ((2, 2, 6), (1, 6, 1), (6, 2, 2))
KEEPER_STAYS = 1

# movement options (§4.7)
NO_OPTION, MIDFIELD, ATTACK, DEFENCE, FAST = range(5)
# outcomes of the control test (§4.4)
KEPT, LOST, SPECIAL = range(3)
# who is moved into the target in phase 5 (§4.4.1, §4.4.3, §4.5)
FROM_SUBSTITUTE, FROM_NEXT_ZONE, NEAREST = 1, 2, 3


# ---------------------------------------------------------------- the action encoding
def _action_bases(blocks):
    """The first id of each action block, laid out one after another from 0."""
    bases, next_id = [], 0
    for size in blocks:
        bases.append(next_id)
        next_id += size
    return bases + [next_id]


(A_FORMATION, A_START_WITH_BALL, A_PLACE, A_ADJUST, A_END_ADJUSTMENTS, A_TARGET, A_SUBSTITUTE,
 A_SEND_OFF, A_BRING, A_SHOOT, A_HOLD_FIRE, A_FREE_KICK_SHOT, A_PLAY_ON, A_CORNER, A_KEEPER,
 A_KICK, A_MIDFIELD, A_ATTACK, A_DEFENCE, A_MOVE, A_END_MOVES, A_FREE_MOVE, A_END_FREE_MOVES,
 A_SLOW_GOAL_KICK, A_QUICK_GOAL_KICK, NUM_ACTIONS) = _action_bases((
     11 * 11,                         # formation d-m, d and m in 0..10 (forwards = 10 - d - m)
     2,                               # start_with_ball team
     ZONE_COUNT,                      # place (the next unplaced player) in zone
     PIECE_COUNT * ZONE_COUNT,        # adjust player to zone
     1,                               # end_adjustments
     ZONE_COUNT,                      # choose_target zone
     ZONE_COUNT,                      # choose_substitute zone
     PIECE_COUNT,                     # send_off player
     PIECE_COUNT,                     # bring_player player
     1, 1, 1, 1,                      # shoot, hold_fire, free_kick_shot, play_on
     ZONE_COUNT,                      # choose_corner zone
     3,                               # keeper_choice: dive left, stay, dive right
     3,                               # kick_penalty: left, centre, right
     1, 1, 1,                         # midfield, attack, defence
     PIECE_COUNT * ZONE_COUNT * 2,    # move_player player, zone, with_ball
     1,                               # end_moves
     PIECE_COUNT * ZONE_COUNT,        # free_move player, zone
     1,                               # end_free_moves
     1, 1,                            # slow_goal_kick, quick_goal_kick
 ))
DIE_FACES = (1, 2, 3, 4, 5, 6)

# ---------------------------------------------------------------- decision points
(N_FORMATION, N_START_ROLL_HOME, N_START_ROLL_AWAY, N_START_CHOICE, N_PLACE, N_ADJUST, N_TARGET,
 N_SUBSTITUTE, N_DIE_CONTROLLING, N_DIE_PASSIVE, N_SPECIAL_ROLL, N_CARD_ROLL, N_SEND_OFF, N_BRING,
 N_SHOT_CHOICE, N_SHOT_ROLL, N_SHOT_ROLL2, N_OPTION, N_MOVE, N_FREE_MOVE, N_FREE_KICK, N_KEEPER,
 N_KICK, N_PENALTY_ROLL, N_CORNER, N_GOAL_KICK_PACE, N_OVER) = range(27)
NOBODY_OFFSIDE = (False,) * ZONE_COUNT
CHANCE_NODES = frozenset((N_START_ROLL_HOME, N_START_ROLL_AWAY, N_DIE_CONTROLLING, N_DIE_PASSIVE,
                          N_SPECIAL_ROLL, N_CARD_ROLL, N_SHOT_ROLL, N_SHOT_ROLL2, N_PENALTY_ROLL))


class Board:
    """The 13 zones of one layout with everything the rules derive from their bands (§1.2).

    ``layout`` is ``"A"`` or ``"B"`` (open question board-picture); raises ValueError otherwise.
    Zones touch when they follow each other in a column, or lie in neighbouring columns and share
    part of a band. ``depth[t][z]`` grows towards team ``t``'s opponent's end.
    """

    def __init__(self, layout: str = "A"):
        if layout not in ("A", "B"):
            raise ValueError(f"layout is A or B, not {layout!r}")
        bands = [zone[3] if layout == "A" else zone[4] for zone in ZONES]
        self.low = tuple(low for low, _ in bands)
        self.high = tuple(high for _, high in bands)
        self.column = tuple(zone[1] for zone in ZONES)
        self.step = tuple(zone[2] for zone in ZONES)
        self.shot = tuple(zone[5] for zone in ZONES)
        zones = range(ZONE_COUNT)
        self.neighbors = tuple(tuple(b for b in zones if b != a and self._touch(a, b)) for a in zones)
        self.adjacent = tuple(frozenset(near) for near in self.neighbors)
        self.distance = tuple(self._distances_from(a) for a in zones)
        self.depth = (tuple(self.low[z] + self.high[z] for z in zones),
                      tuple(18 - self.low[z] - self.high[z] for z in zones))
        self.in_opponent_half = (tuple(self.low[z] >= 5 for z in zones),
                                 tuple(self.high[z] <= 4 for z in zones))
        self.partly_own_half = (tuple(self.low[z] <= 4 for z in zones),
                                tuple(self.high[z] >= 5 for z in zones))
        self.at_own_end = (tuple(self.low[z] == 1 for z in zones), tuple(self.high[z] == 8 for z in zones))
        # straight runs: same column, one or two zones, towards the opponent's end or the own end
        self.ahead = tuple(tuple(tuple(b for b in zones if self._straight(a, b) and
                                       self.depth[t][b] > self.depth[t][a]) for a in zones)
                           for t in (HOME, AWAY))
        self.behind = tuple(tuple(tuple(b for b in zones if self._straight(a, b) and
                                        self.depth[t][b] < self.depth[t][a]) for a in zones)
                            for t in (HOME, AWAY))
        # the zone a straight two-zone move passes through
        self.passed = {(a, b): next(c for c in self.neighbors[a] if self.column[c] == self.column[a]
                                    and abs(self.step[c] - self.step[b]) == 1)
                       for a in zones for b in zones if self._straight(a, b, 2)}
        # §4.7.5: one zone straight away from the end of the pitch a zone touches
        self.free_steps = tuple(tuple(self._free_steps(a, t) for a in zones) for t in (HOME, AWAY))
        self.corner_zones = tuple(tuple(z for z in zones if self.column[z] != 1 and self.at_own_end[1 - t][z])
                                  for t in (HOME, AWAY))

    def _touch(self, a, b):
        if self.column[a] == self.column[b]:
            return abs(self.step[a] - self.step[b]) == 1
        return abs(self.column[a] - self.column[b]) == 1 and \
            self.low[a] <= self.high[b] and self.low[b] <= self.high[a]

    def _straight(self, a, b, steps=None):
        if self.column[a] != self.column[b]:
            return False
        gap = abs(self.step[a] - self.step[b])
        return gap == steps if steps else gap in (1, 2)

    def _distances_from(self, start):
        row = [-1] * ZONE_COUNT
        row[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.neighbors[here]:
                if row[there] < 0:
                    row[there] = row[here] + 1
                    queue.append(there)
        return tuple(row)

    def _free_steps(self, a, team):
        depth = self.depth[team]
        steps = [b for b in self.neighbors[a] if self._straight(a, b, 1)]
        if self.at_own_end[team][a]:
            return tuple(b for b in steps if depth[b] > depth[a])
        if self.at_own_end[1 - team][a]:
            return tuple(b for b in steps if depth[b] < depth[a])
        return ()


_BOARDS = {}


def board_for(layout: str) -> Board:
    """The (shared, read-only) :class:`Board` of ``layout``."""
    if layout not in _BOARDS:
        _BOARDS[layout] = Board(layout)
    return _BOARDS[layout]


class TaktinenGame:
    """The game's options (the spec's ``options``) and its board.

    ``layout`` A or B (§1.2), ``custom_formations`` (§3.1: any D-M-F summing to 10, else only the
    eight tactics cards), ``keepers_placed_home`` (open question keeper-placement: each
    goalkeeper goes in his own penalty area at every re-placement, not only at a kick-off) and
    ``max_turns_per_half`` (the project's cap on turns per half, 10..500). Raises ValueError for
    an option outside its range.
    """

    num_distinct_actions = NUM_ACTIONS

    def __init__(self, layout: str = "A", custom_formations: bool = True,
                 keepers_placed_home: bool = False, max_turns_per_half: int = 60):
        if not 10 <= max_turns_per_half <= 500:
            raise ValueError("max_turns_per_half is 10..500")
        self.board = board_for(layout)
        self.layout = layout
        self.keepers_placed_home = bool(keepers_placed_home)
        self.max_turns_per_half = max_turns_per_half
        cards = {d * 11 + m for d, m, _ in FORMATION_CARDS}
        self.formation_actions = [A_FORMATION + d * 11 + m for d in range(11) for m in range(11 - d)
                                  if custom_formations or d * 11 + m in cards]

    def new_initial_state(self) -> "TaktinenState":
        """The state before the first decision: both teams secretly choose a formation (§3.1)."""
        return TaktinenState(self)


class TaktinenState:
    """A match in progress (see the module docstring for the decision structure).

    Players stand on zones (``at[p]``, -1 off the board); ``count[t][z]`` is how many players
    of team ``t`` stand on zone ``z``.
    """

    # the list fields copied by clone(); everything else is an int, a bool or shared
    _LISTS = ("at", "sent_off", "moved", "moved_now", "start_at", "formation", "goals", "yellows",
              "base", "may_move", "quota_used", "option", "moves_left", "start_roll", "_offside_zones")

    def __init__(self, game: TaktinenGame):
        self.game = game
        self.board = game.board
        self.at = [NONE] * PIECE_COUNT
        self.count = ([0] * ZONE_COUNT, [0] * ZONE_COUNT)
        self._offside_zones = [None, None]      # per team, recomputed when the opponents move
        self.sent_off = [False] * PIECE_COUNT
        self.moved = [False] * PIECE_COUNT
        self.moved_now = [False] * PIECE_COUNT
        self.start_at = [NONE] * PIECE_COUNT
        self.formation = [(0, 0, 0), (0, 0, 0)]       # defenders, midfielders, forwards
        self.start_roll = [0, 0]
        self.goals = [0, 0]
        self.yellows = [0, 0]
        self.base = [0, 0]
        self.may_move = [True, True]
        self.quota_used = [0, 0]
        self.option = [NO_OPTION, NO_OPTION]
        self.moves_left = [0, 0]
        self.first_controlling = HOME
        self.controlling = HOME
        self.half, self.clock, self.added = 1, 1, 0
        self.turns_in_half, self.turn_started = 0, False
        self.ball, self.ball_value = CENTRE, 3
        self.situation = KICK_OFF
        self.restart_turn = self.next_restart = False
        self.goal_kick_waiting = self.in_slow_kick = False
        self.start_zone = self.target = self.substitute = NONE
        self.controlling_at_start = HOME
        self.result = KEPT
        self.card_team = self.awarded = self.bring_team = NONE
        self.bring_mode = 0
        self.mover, self.movers_done, self.fast = HOME, 0, False
        self.adjusted = ()              # players moved in step 3 of the placement (§3.3)
        self.corner_zone = self.corner_taker = NONE
        self.free_kick_shot = False
        self.shot_modifier = self.shot_roll = 0
        self.kick = 0
        self.keeper_guess = KEEPER_STAYS
        self.node, self.actor = N_FORMATION, HOME
        self._legal = None

    # ---------------------------------------------------------------- the API
    def current_player(self) -> int:
        """The team to act (0 home, 1 away), CHANCE (-1) at a roll or TERMINAL (-4) at the end."""
        if self.node == N_OVER:
            return TERMINAL
        return CHANCE if self.node in CHANCE_NODES else self.actor

    def is_terminal(self) -> bool:
        """True once the second half has ended (§4.3.2)."""
        return self.node == N_OVER

    def is_chance_node(self) -> bool:
        """True when a die is to be rolled."""
        return self.node in CHANCE_NODES

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` of the d6 rolled here (outcome i is face i + 1).

        Raises ValueError when the state is not a chance node.
        """
        if self.node not in CHANCE_NODES:
            raise ValueError("chance_outcomes called on a state that is not a chance node")
        return [(i, 1 / 6) for i in range(6)]

    def legal_actions(self) -> list[int]:
        """The sorted legal action ids; the outcome indices at a chance node; [] at the end."""
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    def returns(self) -> list[float]:
        """+1 to the team with more goals, -1 to the other, 0 each for a draw; 0 before the end."""
        if self.node != N_OVER:
            return [0.0, 0.0]
        home, away = self.goals
        return [float((home > away) - (home < away)), float((away > home) - (away < home))]

    def clone(self) -> "TaktinenState":
        """An independent copy."""
        copy = self.__class__.__new__(self.__class__)
        values = self.__dict__.copy()
        for name in self._LISTS:
            values[name] = values[name][:]
        values["count"] = (self.count[0][:], self.count[1][:])
        copy.__dict__ = values
        return copy

    def apply(self, action: int) -> None:
        """Apply a legal action id, or a chance outcome index at a roll.

        Raises ValueError for an action that is not legal here (the state is then unchanged).
        """
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal here")
        self.apply_unchecked(action)

    def apply_unchecked(self, action: int) -> None:
        """Apply an action known to be legal (random playouts, search): no check is made."""
        self._legal = None
        if self.node in CHANCE_NODES:
            self._roll(DIE_FACES[action])
        else:
            self._decide(action)

    # ---------------------------------------------------------------- positions and offside
    def _put(self, piece, zone):
        """Move ``piece`` to ``zone`` (NONE: off the board), keeping the zone counts."""
        team = PIECE_TEAM[piece]
        old = self.at[piece]
        if old >= 0:
            self.count[team][old] -= 1
        if zone >= 0:
            self.count[team][zone] += 1
        self.at[piece] = zone
        self._offside_zones[1 - team] = None

    def _offside(self, team):
        """For each zone, whether a player of ``team`` standing there is offside (§4.1.1).

        The line is the zone of the opponents' second-lowest player, counted from their own end
        (goalkeeper included, open question offside-details); a zone is offside when it lies
        entirely beyond that zone's bands. With fewer than two opponents on the pitch nobody is.
        """
        zones = self._offside_zones[team]
        if zones is None:
            zones = self._offside_zones[team] = self._beyond_line(team)
        return zones

    def _beyond_line(self, team):
        board = self.board
        defender = 1 - team
        depth = board.depth[defender]
        zones = [z for z in (self.at[p] for p in TEAM_PIECES[defender]) if z >= 0]
        if len(zones) < 2:
            return NOBODY_OFFSIDE
        second = sorted(depth[z] for z in zones)[1]
        if team == HOME:
            line = max(board.high[z] for z in zones if depth[z] == second)
            return tuple(low > line for low in board.low)
        line = min(board.low[z] for z in zones if depth[z] == second)
        return tuple(high < line for high in board.high)

    def _onside_move(self, piece, zone):
        """§4.7.4: no move into an offside position, except a straight move backward."""
        team = PIECE_TEAM[piece]
        return not self._offside(team)[zone] or zone in self.board.behind[team][self.at[piece]]

    def _unplaced(self, team):
        """The players of ``team`` still to be placed (not sent off, not taking the corner)."""
        at, sent_off, taker = self.at, self.sent_off, self.corner_taker
        return [p for p in TEAM_PIECES[team] if at[p] < 0 and not sent_off[p] and p != taker]

    def _zone_modifier(self, zone):
        """T1 (§4.4): the control-test modifier of ``zone`` by the balance of players in it."""
        mine = self.count[self.controlling][zone]
        theirs = self.count[1 - self.controlling][zone]
        if mine == theirs:
            return T1_SAME
        if mine > theirs:
            return T1_TWICE if mine >= 2 * theirs else T1_MORE
        return T1_HALF if theirs >= 2 * mine else T1_FEWER

    # ---------------------------------------------------------------- legal actions
    def _generate(self):
        node = self.node
        if node == N_OVER:
            return []
        if node in CHANCE_NODES:
            return [0, 1, 2, 3, 4, 5]
        team = self.actor
        if node == N_MOVE:
            return self._movement_actions(team)
        if node == N_FREE_MOVE:
            return [A_FREE_MOVE + p * ZONE_COUNT + z for p, z in self._free_moves(team)] + [A_END_FREE_MOVES]
        if node == N_PLACE:
            unplaced = self._unplaced(team)
            return [A_PLACE + z for z in range(ZONE_COUNT)
                    if self._placement_ok(team, unplaced[0], len(unplaced), z)]
        if node == N_ADJUST:
            return self._adjustment_actions(team)
        if node == N_TARGET:
            return [A_TARGET + z for z in range(ZONE_COUNT) if self._target_ok(team, z)]
        if node == N_SUBSTITUTE:
            return [A_SUBSTITUTE + z for z in self.board.neighbors[self.target]
                    if self.count[team][z] and not self._offside(team)[z]]
        if node == N_BRING:
            return self._bring_actions(team)
        if node == N_OPTION:
            return [A_MIDFIELD, A_ATTACK, A_DEFENCE]
        if node == N_SHOT_CHOICE:
            return [A_SHOOT, A_HOLD_FIRE]
        if node == N_FORMATION:
            return list(self.game.formation_actions)
        if node == N_START_CHOICE:
            return [A_START_WITH_BALL + HOME, A_START_WITH_BALL + AWAY]
        if node == N_SEND_OFF:
            return [A_SEND_OFF + p for p in TEAM_PIECES[team] if self.at[p] >= 0]
        if node == N_FREE_KICK:
            if self.board.in_opponent_half[team][self.ball]:
                return [A_FREE_KICK_SHOT, A_PLAY_ON]
            return [A_PLAY_ON]
        if node == N_KEEPER:
            return [A_KEEPER, A_KEEPER + 1, A_KEEPER + 2]
        if node == N_KICK:
            return [A_KICK, A_KICK + 1, A_KICK + 2]
        if node == N_GOAL_KICK_PACE:
            return [A_SLOW_GOAL_KICK, A_QUICK_GOAL_KICK]
        return [A_CORNER + z for z in self.board.corner_zones[team]]

    def _target_ok(self, team, zone):
        """§4.1: a target next to or holding an own player, no own player offside in it, and
        (§4.4.1) an empty target needs an onside own player next to it to play through."""
        mine, near, offside = self.count[team], self.board.neighbors[zone], self._offside(team)
        if mine[zone]:
            return not offside[zone]
        if not any(mine[y] for y in near):
            return False
        return self.count[1 - team][zone] > 0 or any(mine[y] and not offside[y] for y in near)

    def _keeper_placed_home(self, team):
        """Whether ``team``'s goalkeeper must stand in his own penalty area: at a kick-off
        (§3.3.1), the defending keeper at a penalty (§5.5.1), at every re-placement with the
        option keepers_placed_home."""
        return self.situation == KICK_OFF or (self.situation == PENALTY and team != self.controlling) \
            or self.game.keepers_placed_home

    def _placement_ok(self, team, piece, left, zone):
        """§3.3 with the additions of the situation being set up (§3.3.1, §5.1.1, §5.5.1):
        may ``piece``, the next of the ``left`` players ``team`` has to place, go to ``zone``?"""
        board, count = self.board, self.count[team]
        goalkeeper = piece == team
        if goalkeeper and self._keeper_placed_home(team) and zone != OWN_AREA[team]:
            return False
        if self.situation == KICK_OFF:
            if goalkeeper:
                return True
            return board.partly_own_half[team][zone] and (
                team != self.controlling or zone == CENTRE
                or count[CENTRE] + left - 1 >= 2)
        if self.situation == PENALTY:
            area = OWN_AREA[1 - self.controlling]
            if team == self.controlling:
                if zone == area:
                    return not goalkeeper and count[zone] == 0
                return left > 1 or count[area] == 1
            return goalkeeper or zone != OWN_AREA[team]
        if self.situation == FREE_KICK:
            if team == self.controlling:
                return zone == self.ball or left > 1 or count[self.ball] > 0
            depth = board.depth[team]
            line = depth[self.ball]
            return (depth[zone] < line or left > 1
                    or any(self.at[q] >= 0 and depth[self.at[q]] < line for q in TEAM_PIECES[team])
                    or not any(d < line for d in depth))
        return True

    def _adjustment_actions(self, team):
        """§3.3 step 3: one or two players, each one zone to an adjacent zone, keeping the
        situation's requirements."""
        board, count, at = self.board, self.count[team], self.at
        actions = []
        for p in TEAM_PIECES[team]:
            here = at[p]
            if here < 0 or p in self.adjusted:
                continue
            for zone in board.neighbors[here]:
                if p == team and self._keeper_placed_home(team):
                    ok = zone == OWN_AREA[team]
                elif self.situation == KICK_OFF:
                    ok = board.partly_own_half[team][zone] and \
                        count[CENTRE] - (here == CENTRE) + (zone == CENTRE) >= 2
                elif self.situation == PENALTY:
                    area = OWN_AREA[1 - team]
                    ok = zone != area and here != area
                elif self.situation == FREE_KICK:
                    ok = count[self.ball] - (here == self.ball) + (zone == self.ball) >= 1
                else:
                    ok = True
                if ok:
                    actions.append(A_ADJUST + p * ZONE_COUNT + zone)
        actions.append(A_END_ADJUSTMENTS)
        return actions

    def _bring_actions(self, team):
        """§4.4.1, §4.4.3, §4.5: who may be moved into the target in phase 5."""
        board, at, target = self.board, self.at, self.target
        placed = [p for p in TEAM_PIECES[team] if at[p] >= 0]
        if self.bring_mode == FROM_SUBSTITUTE:
            chosen = [p for p in placed if at[p] == self.substitute]
        elif self.bring_mode == FROM_NEXT_ZONE:
            offside = self._offside(team)
            chosen = [p for p in placed if target in board.adjacent[at[p]] and not offside[at[p]]]
        else:
            # the nearest player; the goalkeeper may be skipped when he alone is nearest (§4.5)
            distance = {p: board.distance[at[p]][target] for p in placed}
            nearest = min(distance.values(), default=0)
            outfield = min((distance[p] for p in placed if p != team), default=0)
            keeper_alone = team in distance and distance[team] < outfield
            chosen = [p for p in placed if distance[p] == nearest
                      or (p != team and keeper_alone and distance[p] == outfield)]
        return [A_BRING + p for p in chosen if at[p] != target]

    def _movement_actions(self, team):
        """§4.7.1-§4.7.4, §4.7.6, §4.7.7: the moves of the chosen option, then 'end of moves'
        (in id order: players, then zones, each in board order)."""
        board, at, option = self.board, self.at, self.option[team]
        offside = self._offside(team)
        # §4.7.7; before a slow goal kick is taken the ball stays in the penalty area (§5.3)
        may_carry = team == self.controlling and not self.in_slow_kick
        actions = []
        for p in TEAM_PIECES[team]:
            here = at[p]
            if here < 0 or self.moved_now[p]:
                continue
            carrier = may_carry and here == self.ball
            if option == ATTACK:
                zones = board.ahead[team][here]
            elif option == DEFENCE:
                zones = board.behind[team][here]
            else:
                zones = board.neighbors[here]
            backward = board.behind[team][here]
            for zone in zones:
                if option == MIDFIELD and board.column[zone] == board.column[here] \
                        and not self._midfield_step_ok(p, here, zone):
                    continue
                if offside[zone] and zone not in backward:
                    continue
                action = A_MOVE + (p * ZONE_COUNT + zone) * 2
                actions.append(action)
                if carrier and self._may_carry(here, zone):
                    actions.append(action + 1)
        actions.append(A_END_MOVES)
        return actions

    def _midfield_step_ok(self, piece, here, zone):
        """§4.7.1: a straight midfield step may not make the player his team's topmost player,
        nor (the goalkeeper aside) its lowest, against the others' zones at the start of the turn."""
        team = PIECE_TEAM[piece]
        depth = self.board.depth[team]
        start_at = self.start_at
        if depth[zone] > depth[here]:
            return any(q != piece and start_at[q] >= 0 and depth[start_at[q]] > depth[zone]
                       for q in TEAM_PIECES[team])
        return piece == team or any(q != piece and start_at[q] >= 0 and depth[start_at[q]] < depth[zone]
                                    for q in TEAM_OUTFIELD[team])

    def _may_carry(self, here, zone):
        """§4.7.7: a controlling player in the ball's zone (``here``) takes the ball along when the
        zones he starts from, passes through (on a two-zone move) and reaches hold no passive
        players."""
        theirs = self.count[1 - self.controlling]
        if theirs[here] or theirs[zone]:
            return False
        middle = self.board.passed.get((here, zone))
        return middle is None or not theirs[middle]

    def _free_moves(self, team):
        """§4.7.5: an outfield player who has not moved steps one zone straight away from the end
        of the pitch his zone touches, not into the ball's zone and not into an offside position."""
        board, at = self.board, self.at
        return [(p, zone) for p in TEAM_OUTFIELD[team] if at[p] >= 0 and not self.moved[p]
                for zone in board.free_steps[team][at[p]]
                if zone != self.ball and self._onside_move(p, zone)]

    # ---------------------------------------------------------------- decisions
    def _decide(self, action):
        node, team = self.node, self.actor
        if node == N_MOVE:
            if action == A_END_MOVES:
                return self._free_move_phase()
            player, rest = divmod(action - A_MOVE, ZONE_COUNT * 2)
            zone, with_ball = divmod(rest, 2)
            self._move(player, zone, with_ball)
            self.moves_left[team] -= 1
            return self._next_move()
        if node == N_FREE_MOVE:
            if action == A_END_FREE_MOVES:
                return self._mover_done()
            self._move(*divmod(action - A_FREE_MOVE, ZONE_COUNT), False)
            return self._free_move_phase()
        if node == N_PLACE:
            self._put(self._unplaced(team)[0], action - A_PLACE)
            return self._next_placement()
        if node == N_ADJUST:
            if action == A_END_ADJUSTMENTS:
                return self._end_placement()
            player, zone = divmod(action - A_ADJUST, ZONE_COUNT)
            self._put(player, zone)
            self.adjusted += (player,)
            return self._end_placement() if len(self.adjusted) >= 2 else None
        if node == N_TARGET:
            self.target = action - A_TARGET
            self.node = N_DIE_CONTROLLING
            return None
        if node == N_SUBSTITUTE:
            self.substitute = action - A_SUBSTITUTE
            return self._control_test()
        if node == N_OPTION:
            self.option[team] = (MIDFIELD, ATTACK, DEFENCE)[action - A_MIDFIELD]
            return self._start_moves()
        if node == N_BRING:
            player = action - A_BRING
            self._put(player, self.target)
            self.moved[player] = True
            self.quota_used[team] += 1
            return self._ball_arrives()
        if node == N_SHOT_CHOICE:
            if action == A_HOLD_FIRE:
                return self._start_movement()
            return self._take_shot()
        if node == N_GOAL_KICK_PACE:
            # §5.3: a slow goal kick begins with an extra movement phase, controlling team first
            if action == A_SLOW_GOAL_KICK:
                self.in_slow_kick = True
                return self._start_movement()
            self._decision(N_TARGET, self.controlling)
            return None
        if node == N_FORMATION:
            defenders, midfielders = divmod(action - A_FORMATION, 11)
            self.formation[team] = (defenders, midfielders, 10 - defenders - midfielders)
            if team == HOME:
                self.actor = AWAY
            else:
                self.node = N_START_ROLL_HOME
            return None
        if node == N_START_CHOICE:
            self.first_controlling = action - A_START_WITH_BALL
            self.half, self.clock, self.added = 1, 1, 0
            self.ball = CENTRE
            self._restart(KICK_OFF, self.first_controlling)
            return self._start_placement()
        if node == N_SEND_OFF:
            player = action - A_SEND_OFF
            self._put(player, NONE)
            self.sent_off[player] = True
            return self._after_cards()
        if node == N_FREE_KICK:
            # §5.1: declaring the shot is taking it (phase 6); declining starts a new turn
            self.situation = OPEN_PLAY
            if action == A_PLAY_ON:
                return self._end_turn()
            self.free_kick_shot = True
            return self._take_shot()
        if node == N_KEEPER:
            self.keeper_guess = action - A_KEEPER
            self._decision(N_KICK, self.controlling)
            return None
        if node == N_KICK:
            self.kick = action - A_KICK
            self.node = N_PENALTY_ROLL
            return None
        # N_CORNER: §5.2, the corner is taken from the chosen flank zone
        self.corner_zone = self.ball = action - A_CORNER
        self._restart(CORNER, self.controlling)
        self.next_restart = True
        return self._start_placement()

    def _roll(self, face):
        node = self.node
        if node == N_DIE_CONTROLLING:
            self.base[self.controlling] = face
            self.node = N_DIE_PASSIVE
        elif node == N_DIE_PASSIVE:
            self.base[1 - self.controlling] = face
            self._time()
        elif node == N_SHOT_ROLL:
            self.shot_roll = face
            if self.ball_value - self.shot_modifier >= 6 and face == 6:
                self.node = N_SHOT_ROLL2
            else:
                self._resolve_shot(0)
        elif node == N_SHOT_ROLL2:
            self._resolve_shot(face)
        elif node == N_SPECIAL_ROLL:
            self._special_situation(face)
        elif node == N_CARD_ROLL:
            if face < self.yellows[self.card_team]:
                self._decision(N_SEND_OFF, self.card_team)
            else:
                self._after_cards()
        elif node == N_PENALTY_ROLL:
            self._resolve_penalty(face)
        elif node == N_START_ROLL_HOME:
            self.start_roll[HOME] = face
            self.node = N_START_ROLL_AWAY
        else:
            # §3.2: the higher roll chooses who starts with the ball; equal rolls are rolled again
            self.start_roll[AWAY] = face
            home, away = self.start_roll
            if home == away:
                self.node = N_START_ROLL_HOME
            else:
                self._decision(N_START_CHOICE, HOME if home > away else AWAY)

    def _decision(self, node, team):
        self.node, self.actor = node, team

    # ---------------------------------------------------------------- restarts and placement (§3.3, §5)
    def _restart(self, kind, team):
        """Set up a restart (T4): the situation, the team in control and the ball value."""
        self.situation = kind
        self.controlling = team
        self.ball_value = RESTART_BALL_VALUE[kind]

    def _goal(self, scorer):
        """§4.6: a goal; the scoring team restarts as passive from a kick-off (§3.3.1)."""
        self.goals[scorer] += 1
        self.ball = CENTRE
        self.next_restart = False
        self._restart(KICK_OFF, 1 - scorer)
        self._start_placement()

    def _goal_kick(self, team):
        """§5.3: the ball to ``team``'s penalty area at value 2, no re-placement; the next turn
        ignores the start-zone modifiers and begins with the kicking team's choice of a slow
        goal kick (an extra movement phase first) or a quick one."""
        self._restart(GOAL_KICK, team)
        self.ball = OWN_AREA[team]
        self.next_restart = True
        self.goal_kick_waiting = True

    def _start_placement(self):
        """§3.3: the board is cleared; the controlling team places, then the passive team, one
        player at a time (goalkeeper first); a corner's taker waits off the board (§5.2.1)."""
        for p in range(PIECE_COUNT):
            if self.at[p] >= 0:
                self._put(p, NONE)
        self.adjusted = ()
        if self.situation == CORNER:
            self.corner_taker = next((p for p in TEAM_OUTFIELD[self.controlling] if not self.sent_off[p]), NONE)
        else:
            self.corner_taker = NONE
        self._next_placement()

    def _next_placement(self):
        if self._unplaced(self.controlling):
            self._decision(N_PLACE, self.controlling)
        elif self._unplaced(1 - self.controlling):
            self._decision(N_PLACE, 1 - self.controlling)
        else:
            self._decision(N_ADJUST, self.controlling)

    def _end_placement(self):
        self.start_at = self.at[:]
        if self.situation == PENALTY:
            self._decision(N_KEEPER, 1 - self.controlling)
        elif self.situation == FREE_KICK:
            self._decision(N_FREE_KICK, self.controlling)
        else:
            self._end_turn()

    # ---------------------------------------------------------------- the turn (§4)
    def _end_turn(self):
        """§4.3: the half ends after the turn that reached +5 added time, or at the turn cap."""
        if self.turn_started:
            self.turns_in_half += 1
        self.turn_started = False
        if self.added >= 5 or self.turns_in_half >= self.game.max_turns_per_half:
            self._end_half()
        else:
            self._start_turn()

    def _end_half(self):
        """§4.3.2: half-time re-places the teams for a kick-off; the second half ends the match."""
        if self.half == 2:
            self.node = N_OVER
            return
        self.half, self.clock, self.added = 2, 46, 0
        self.turns_in_half, self.turn_started = 0, False
        self.next_restart = self.goal_kick_waiting = self.in_slow_kick = False
        self.ball = CENTRE
        self._restart(KICK_OFF, 1 - self.first_controlling)
        self._start_placement()

    def _start_turn(self):
        self.turn_started = True
        self.restart_turn, self.next_restart = self.next_restart, False
        self._fix_start_of_turn()
        self.may_move = [True, True]
        self.quota_used = [0, 0]
        self.controlling_at_start = self.controlling
        self.substitute = self.awarded = self.card_team = self.bring_team = NONE
        self.free_kick_shot = False
        self.situation = OPEN_PLAY
        if self.goal_kick_waiting:
            self.goal_kick_waiting = False
            self._decision(N_GOAL_KICK_PACE, self.controlling)
        else:
            self._decision(N_TARGET, self.controlling)

    def _fix_start_of_turn(self):
        """The positions "at the start of the turn" of §4.7.1 and §4.7.5, fixed as phase 1
        begins (after a slow goal kick's extra movement phase, RULES-BRIEF §1.8 items 14, 20)."""
        self.start_at = self.at[:]
        self.moved = [False] * PIECE_COUNT
        self.moved_now = [False] * PIECE_COUNT
        self.option = [NO_OPTION, NO_OPTION]
        self.start_zone = self.ball

    def _time(self):
        """§4.3: the referee advances by the dice difference; added time ends the half early."""
        difference = abs(self.base[HOME] - self.base[AWAY])
        if self.added == 0:
            if self.clock + difference > 45 * self.half:
                self.clock, self.added = 45 * self.half, 1
            else:
                self.clock += difference
        elif difference < self.added:
            return self._end_half()
        else:
            self.added += 1
        if self.count[HOME][self.target] + self.count[AWAY][self.target] == 0:
            # §4.4.1: an empty target is played through a zone chosen after the roll
            self._decision(N_SUBSTITUTE, self.controlling)
            return None
        return self._control_test()

    def _control_test(self):
        """§4.4: the controlling team's die plus T1 against the ball value."""
        target = self.target
        modified = self.base[self.controlling]
        if not self.restart_turn:
            modified += self._zone_modifier(self.start_zone)
        modified += self._zone_modifier(target if self.substitute == NONE else self.substitute)
        modified += T1_PER_ZONE_BETWEEN * max(0, self.board.distance[self.start_zone][target] - 1)
        if modified > self.ball_value:
            self.result = KEPT
        elif modified < self.ball_value:
            self.result = LOST
            self.controlling = 1 - self.controlling
        else:
            self.result = SPECIAL
            self.node = N_SPECIAL_ROLL
            return None
        return self._ball_move()

    def _special_situation(self, roll):
        """§4.4.2 T2: cards, free kicks, or only one team moving in phase 7."""
        controlling, passive = self.controlling, 1 - self.controlling
        if roll == 1:
            self.card_team, self.awarded = controlling, passive
        elif roll == 2:
            self.awarded = passive
        elif roll == 3:
            self.may_move[controlling] = False
        elif roll == 4:
            self.may_move[passive] = False
        elif roll == 5:
            self.awarded = controlling
        else:
            self.card_team, self.awarded = passive, controlling
        if self.card_team != NONE:
            self.yellows[self.card_team] += 1
            if self.yellows[self.card_team] >= 2:
                # §5.4: a second yellow is rolled for; lower than the yellows received is a red
                self.node = N_CARD_ROLL
                return None
        return self._after_cards()

    def _after_cards(self):
        """§5.1: a free kick from the target zone (a penalty in the opponent's area); otherwise
        possession stays and the ball moves as after a successful test."""
        if self.awarded != NONE:
            self.ball = self.target
            if self.target == OWN_AREA[1 - self.awarded]:
                self._restart(PENALTY, self.awarded)
            else:
                self._restart(FREE_KICK, self.awarded)
                self.next_restart = True
            return self._start_placement()
        self.result = KEPT
        return self._ball_move()

    def _ball_move(self):
        """§4.5: who must be moved into the target; a corner's taker joins the corner zone."""
        controlling, target = self.controlling, self.target
        mine, theirs = self.count[controlling], self.count[1 - controlling]
        self.bring_team = NONE
        if self.result == LOST and mine[target] == 0:
            self.bring_team, self.bring_mode = controlling, NEAREST
        elif self.result == KEPT and self.substitute != NONE:
            self.bring_team, self.bring_mode = controlling, FROM_SUBSTITUTE
        elif self.result == KEPT and mine[target] == 0 and theirs[target] > 0:
            offside = self._offside(controlling)
            if any(self.at[p] >= 0 and target in self.board.adjacent[self.at[p]] and not offside[self.at[p]]
                   for p in TEAM_PIECES[controlling]):
                self.bring_team, self.bring_mode = controlling, FROM_NEXT_ZONE
        if self.corner_taker != NONE:
            self._put(self.corner_taker, self.corner_zone)
            self.moved[self.corner_taker] = True
            self.corner_taker = NONE
        if self.bring_team != NONE:
            self._decision(N_BRING, self.bring_team)
            return None
        return self._ball_arrives()

    def _ball_arrives(self):
        """§4.5.1-§4.5.2: the new ball value, one less in an easy situation (never below 1)."""
        controlling, passive = self.controlling, 1 - self.controlling
        self.ball = self.target
        self.ball_value = self.base[self.controlling_at_start]
        mine, theirs = self.count[controlling], self.count[passive]
        start = self.start_zone
        if (not self.restart_turn and mine[start] > 0 and theirs[start] == 0) or \
                (mine[self.ball] > 0 and theirs[self.ball] == 0):
            self.ball_value = max(1, self.ball_value - 1)
        return self._goal_attempt()

    def _goal_attempt(self):
        """§4.6: a shot is possible from a zone entirely in the opponent's half."""
        if self.board.in_opponent_half[self.controlling][self.ball]:
            self._decision(N_SHOT_CHOICE, self.controlling)
            return None
        return self._start_movement()

    def _take_shot(self):
        """§4.6: the shot's modifiers are fixed, then its die is rolled."""
        self.shot_modifier = self._shot_modifier()
        self.node = N_SHOT_ROLL

    def _shot_modifier(self):
        """T3 (§4.6) plus the zone's own modifier; the passive goalkeeper counts in the ball's
        zone but not in the penalty-area rows (open question keeper-counting)."""
        controlling, passive = self.controlling, 1 - self.controlling
        mine, theirs = self.count[controlling], self.count[passive]
        ball, area = self.ball, OWN_AREA[passive]
        total = self.board.shot[ball]
        if not self.free_kick_shot:
            if mine[ball] > theirs[ball]:
                total += SHOT_MORE
            elif theirs[ball] > mine[ball]:
                total += SHOT_FEWER
        keeper_home = self.at[passive] == area
        attackers, defenders = mine[area], theirs[area] - keeper_home
        if attackers > defenders:
            total += SHOT_MORE
        elif defenders > attackers:
            total += SHOT_FEWER
        if not keeper_home:
            total += SHOT_KEEPER_ABSENT
        return total

    def _resolve_shot(self, second_roll):
        """§4.6, §4.6.1: goal, corner or goal kick; a difficult attempt needs two sixes."""
        controlling = self.controlling
        if self.ball_value - self.shot_modifier >= 6:
            if self.shot_roll == 6 and second_roll == 6:
                return self._goal(controlling)
            self._goal_kick(1 - controlling)
            return self._start_movement()
        total = self.shot_roll + self.shot_modifier
        if total > self.ball_value:
            return self._goal(controlling)
        if total == self.ball_value:
            self._decision(N_CORNER, controlling)
            return None
        self._goal_kick(1 - controlling)
        return self._start_movement()

    def _resolve_penalty(self, roll):
        """§5.5.2 T5: the roll against the kick side and the keeper's die; a miss is a goal kick
        and the turn goes on with phase 7."""
        if roll >= PENALTY_NEEDS[self.kick][self.keeper_guess]:
            return self._goal(self.controlling)
        self._goal_kick(1 - self.controlling)
        return self._start_movement()

    # ---------------------------------------------------------------- movement (§4.7)
    def _start_movement(self):
        """§4.7: the lower die moves first; equal dice give fast moves, passive team first."""
        home, away = self.base
        self.fast = not self.in_slow_kick and home == away
        self.movers_done = 0
        if self.in_slow_kick:
            self.mover = self.controlling
        elif self.fast:
            self.mover = 1 - self.controlling
        else:
            self.mover = HOME if home < away else AWAY
        self.moved_now = [False] * PIECE_COUNT
        return self._mover_starts()

    def _mover_starts(self):
        team = self.mover
        if not self.may_move[team]:
            return self._mover_done()
        if not self.fast:
            self._decision(N_OPTION, team)
            return None
        self.option[team] = FAST
        return self._start_moves()

    def _start_moves(self):
        """The option's quota (§4.7.1-§4.7.3, §4.7.6) less the phase-5 moves of the team."""
        team = self.mover
        defenders, midfielders, forwards = self.formation[team]
        quota = {MIDFIELD: midfielders, ATTACK: forwards, DEFENCE: defenders}.get(self.option[team],
                                                                                self.base[team])
        self.moves_left[team] = max(0, quota - self.quota_used[team])
        return self._next_move()

    def _next_move(self):
        if self.moves_left[self.mover] > 0:
            self._decision(N_MOVE, self.mover)
            return None
        return self._free_move_phase()

    def _free_move_phase(self):
        if self._free_moves(self.mover):
            self._decision(N_FREE_MOVE, self.mover)
            return None
        return self._mover_done()

    def _mover_done(self):
        self.movers_done += 1
        if self.movers_done < 2:
            self.mover = 1 - self.mover
            return self._mover_starts()
        if self.in_slow_kick:
            self.in_slow_kick = False
            self._fix_start_of_turn()
            self._decision(N_TARGET, self.controlling)
            return None
        return self._end_turn()

    def _move(self, piece, zone, with_ball):
        """Move a player in phase 7, carrying the ball along when ``with_ball``."""
        if with_ball:
            self.ball = zone
        self._put(piece, zone)
        self.moved[piece] = True
        self.moved_now[piece] = True
