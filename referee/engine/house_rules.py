"""House rules: every point where the three rule texts disagree or are silent, as a named switch."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from .errors import InvalidSetup
from .words import N_, choices_said


@dataclass(frozen=True)
class Reading:
    """One way to settle a disputed point: its switch value, what it means, and who reads it so."""

    value: str
    summary: str
    source: str


@dataclass(frozen=True)
class HouseRuleSpec:
    """A switch a table can set: its name, the question it settles, and its readings (default first)."""

    name: str
    question: str
    readings: tuple[Reading, ...]
    rule: str

    @property
    def default(self) -> str:
        """The reading used unless the table chose another."""
        return self.readings[0].value

    @property
    def values(self) -> tuple[str, ...]:
        """Every value the switch accepts."""
        return tuple(reading.value for reading in self.readings)

    def reading(self, value: str) -> Reading:
        """Return the reading for `value`."""
        return next(reading for reading in self.readings if reading.value == value)


HOUSE_RULE_SPECS: tuple[HouseRuleSpec, ...] = (
    HouseRuleSpec(
        name="over_21",
        question=N_("What happens when someone plays a number card that takes the total above 21?"),
        rule="over-21",
        readings=(
            Reading(
                "refuse",
                N_(
                    "The card cannot be played. A player who has nothing that fits taps "
                    "Can't play: they keep their cards and lose a life."
                ),
                N_('1994 rules ("you do not play the card"); how-to + FAQ'),
            ),
            Reading(
                "bust",
                N_(
                    "The card may be laid down, but it counts as a bust: it goes back to the "
                    "player's hand and they lose a life."
                ),
                N_('modern text ("the card is then returned to you")'),
            ),
        ),
    ),
    HouseRuleSpec(
        name="bomb_last_card",
        question=N_("A Bomb is someone's last card: is it answered as well as ending the round?"),
        rule="bomb-last-card",
        readings=(
            Reading(
                "both",
                N_(
                    "Both: everyone else must first answer the Bomb with a 0 (or lose a life), then "
                    "the round ends and everyone still holding cards loses a life."
                ),
                N_("interpretation by the how-to FAQ author (Eric Mortensen)"),
            ),
            Reading(
                "round_only",
                N_("Only the round ends: nobody answers the Bomb, everyone else loses one life."),
                N_("interpretation: the texts only say the last card ends the hand"),
            ),
        ),
    ),
    HouseRuleSpec(
        name="zero_answer_last_card",
        question=N_("Someone answers a Bomb with the 0 that was their last card: have they gone out?"),
        rule="zero-answer-last-card",
        readings=(
            Reading(
                "goes_out",
                N_(
                    "Yes: their hand is empty, so the round ends as if they had played their last "
                    "card, and everyone still holding cards loses a life."
                ),
                N_('1994 rules ("if you still have a card or cards when a player gets rid of their last card")'),
            ),
            Reading(
                "draws_one",
                N_(
                    "No: answering is not a turn. They draw one card from the draw pile and play on; "
                    "only if no card can be drawn at all do they go out after all."
                ),
                N_('interpretation: the round ends on a card played on your turn (1994 "if it is your last card")'),
            ),
        ),
    ),
    HouseRuleSpec(
        name="redeal_deal_from",
        question=N_("Hand in & Re-deal: who gets the first card, and which way does the deal go?"),
        rule="redeal-order",
        readings=(
            Reading(
                "left",
                N_("The player on the redealer's left gets the first card, then clockwise."),
                N_('1994 rules ("start dealing to his left"); how-to + FAQ'),
            ),
            Reading(
                "direction",
                N_(
                    "The next player in the current direction of play gets the first card, and the "
                    "deal follows the direction of play."
                ),
                N_('modern text ("dealt again in the current direction of play")'),
            ),
        ),
    ),
    HouseRuleSpec(
        name="after_redeal",
        question=N_("After a Hand in & Re-deal, who plays next?"),
        rule="after-redeal",
        readings=(
            Reading(
                "continue",
                N_("Play continues as normal: the next player in the current direction."),
                N_('how-to + FAQ ("play will then continue normally"); modern text'),
            ),
            Reading(
                "left",
                N_(
                    "The player on the redealer's left plays next, and the direction stays as it was: after a "
                    "Reverse, play then runs back towards the redealer, who plays again soon."
                ),
                N_('1994 rules ("after a deal of any sort, play always starts to the left")'),
            ),
            Reading(
                "left_clockwise",
                N_("Play starts again on the redealer's left and goes clockwise from there, as after any deal."),
                N_(
                    '1994 rules ("after a deal of any sort, play always starts to the left"; '
                    '"play proceeds clockwise, starting left of the dealer")'
                ),
            ),
        ),
    ),
    HouseRuleSpec(
        name="empty_draw_pile",
        question=N_("Someone must draw but the draw pile is empty: what now?"),
        rule="empty-draw-pile",
        readings=(
            Reading(
                "reshuffle",
                N_(
                    "Turn the discard pile over, all but its top card, shuffle it and carry on drawing. If even "
                    "that is used up, the players later in turn order go short: each draws what is left, in turn."
                ),
                N_("interpretation (common card-game practice; all three texts are silent)"),
            ),
            Reading(
                "stop",
                N_("Nobody draws any more cards this round; play goes on with the hands as they are."),
                N_("interpretation (the texts are silent)"),
            ),
        ),
    ),
    HouseRuleSpec(
        name="new_round_direction",
        question=N_("A new round starts: which way does play go?"),
        rule="new-round",
        readings=(
            Reading(
                "clockwise",
                N_("Always clockwise again, starting on the new dealer's left."),
                N_('1994 rules ("play proceeds clockwise, starting left of the dealer")'),
            ),
            Reading(
                "keep",
                N_(
                    "The direction at the end of the last round carries over; the player after the "
                    "new dealer in that direction starts."
                ),
                N_("interpretation (the texts are silent about a new round)"),
            ),
        ),
    ),
    HouseRuleSpec(
        name="bomb_teammates",
        question=N_("Teams: does a Bomb hit the bomber's own teammates?"),
        rule="teams-bomb",
        readings=(
            Reading(
                "all_others",
                N_("Yes: every other player must answer with a 0, teammates included."),
                N_('1994 rules ("all other players", "your team might flip several"); how-to + FAQ'),
            ),
            Reading(
                "opponents_only",
                N_("No: only the other team must answer the Bomb."),
                N_("interpretation (a friendlier team game)"),
            ),
        ),
    ),
    HouseRuleSpec(
        name="teams_both_out",
        question=N_("Teams: one Bomb takes both teams' last lives. Who wins?"),
        rule="teams-both-out",
        readings=(
            Reading(
                "together",
                N_(
                    "Lives lost to one Bomb are taken together, so both teams are out at once: it is settled "
                    "like a Sudden Death tie. Every player adds up the number cards in their hand, and the "
                    "team with the lower total wins."
                ),
                N_(
                    "interpretation by this referee (the texts are silent; the Sudden Death tie-break of the "
                    "1994 rules and how-to)"
                ),
            ),
            Reading(
                "bomber_team",
                N_(
                    "The bomber's team wins: the Bomb was their play. The other team's lives are taken first and "
                    "the game ends as soon as it is out, so the bomber's team keeps the lives it had."
                ),
                N_("interpretation by this referee (the texts are silent)"),
            ),
            Reading(
                "turn_order",
                N_(
                    "Lives are taken one player at a time in turn order from the bomber; the first team to "
                    "reach 0 loses, and the game ends there."
                ),
                N_("interpretation by this referee (how the referee settled it before)"),
            ),
        ),
    ),
    HouseRuleSpec(
        name="tiebreak_tie",
        question=N_("A tie-break (Sudden Death, or both teams out at once) ends level too. Who wins?"),
        rule="tiebreak",
        readings=(
            Reading(
                "shared",
                N_("The tied players (or teams) share the win."),
                N_("interpretation (the 1994 rules and how-to stop at the lowest total)"),
            ),
            Reading(
                "fewest_cards",
                N_("The tied player (or team) holding the fewest cards wins; still equal, they share the win."),
                N_("interpretation (fewer cards is closer to going out)"),
            ),
        ),
    ),
)

SPECS_BY_NAME: dict[str, HouseRuleSpec] = {spec.name: spec for spec in HOUSE_RULE_SPECS}

# Each reading in a few plain words, for a sentence that says what a table changed ("New game. Changed by the
# host: Cy starts; going over 21 costs a life at once."): a reading's summary is too long for that, and its
# switch value ("bust", "round_only") is no word a player knows. Marked for the catalogs: the sentence is said in
# the phone's language (referee/web/rematchnote.py).
BRIEFS: dict[tuple[str, str], str] = {
    ("over_21", "refuse"): N_("a card that would take the total over 21 can't be played"),
    ("over_21", "bust"): N_("going over 21 costs a life at once (the card goes back to the hand)"),
    ("bomb_last_card", "both"): N_("a Bomb as someone's last card is answered with 0s before the round ends"),
    ("bomb_last_card", "round_only"): N_("a Bomb as someone's last card only ends the round (nobody answers it)"),
    ("zero_answer_last_card", "goes_out"): N_("answering a Bomb with your last card, a 0, means you have gone out"),
    ("zero_answer_last_card", "draws_one"): N_("answering a Bomb with your last card, a 0, is not going out: draw one"),
    ("redeal_deal_from", "left"): N_("a re-deal starts on the redealer's left and goes clockwise"),
    ("redeal_deal_from", "direction"): N_("a re-deal follows the direction of play"),
    ("after_redeal", "continue"): N_("after a re-deal, play continues as normal"),
    ("after_redeal", "left"): N_("after a re-deal, the redealer's left plays next (the direction stays)"),
    ("after_redeal", "left_clockwise"): N_("after a re-deal, play starts again on the redealer's left, clockwise"),
    ("empty_draw_pile", "reshuffle"): N_("an empty draw pile is refilled from the discard pile"),
    ("empty_draw_pile", "stop"): N_("once the draw pile is empty, nobody draws for the rest of the round"),
    ("new_round_direction", "clockwise"): N_("every new round goes clockwise"),
    ("new_round_direction", "keep"): N_("a new round keeps the last round's direction"),
    ("bomb_teammates", "all_others"): N_("a Bomb hits the bomber's team mates too"),
    ("bomb_teammates", "opponents_only"): N_("a Bomb hits only the other team"),
    ("teams_both_out", "together"): N_("when one Bomb puts both teams out, a tie-break on the cards in hand decides"),
    ("teams_both_out", "bomber_team"): N_("when one Bomb puts both teams out, the bomber's team wins"),
    ("teams_both_out", "turn_order"): N_("when one Bomb puts both teams out, lives go in turn order from the bomber"),
    ("tiebreak_tie", "shared"): N_("equal tie-break totals share the win"),
    ("tiebreak_tie", "fewest_cards"): N_("equal tie-break totals: the fewest cards wins"),
}
# Every reading has its few words, and nothing else does.
assert set(BRIEFS) == {(spec.name, reading.value) for spec in HOUSE_RULE_SPECS for reading in spec.readings}


def reading_brief(name: str, value: str) -> str:
    """Return a house rule's reading in a few plain words ("going over 21 costs a life at once ...")."""
    return BRIEFS[(name, value)]


@dataclass(frozen=True)
class HouseRules:
    """The switches one table chose; each field holds one of its spec's values."""

    over_21: str = "refuse"
    bomb_last_card: str = "both"
    zero_answer_last_card: str = "goes_out"
    redeal_deal_from: str = "left"
    after_redeal: str = "continue"
    empty_draw_pile: str = "reshuffle"
    new_round_direction: str = "clockwise"
    bomb_teammates: str = "all_others"
    teams_both_out: str = "together"
    tiebreak_tie: str = "shared"

    @classmethod
    def from_mapping(cls, chosen: Mapping[str, object] | None) -> HouseRules:
        """Build house rules from a {switch: value} mapping; refuse unknown switches or values."""
        chosen = chosen or {}
        for name, value in chosen.items():
            spec = SPECS_BY_NAME.get(name)
            if spec is None:
                raise InvalidSetup(
                    "unknown_house_rule",
                    N_("There is no house rule called %(name)s."),
                    field="house_rules",
                    name=repr(name),
                )
            if value not in spec.values:
                choices = choices_said(repr(v) for v in spec.values)
                raise InvalidSetup(
                    "bad_house_rule",
                    N_("House rule %(name)s can be %(choices)s, not %(value)s."),
                    field="house_rules",
                    name=name,
                    choices=choices,
                    value=repr(value),
                )
        return cls(**{name: str(value) for name, value in chosen.items()})

    def as_dict(self) -> dict[str, str]:
        """Return every switch with its value."""
        return {field.name: getattr(self, field.name) for field in fields(self)}


# The dataclass defaults and the specs must name the same switches with the same defaults.
assert HouseRules().as_dict() == {spec.name: spec.default for spec in HOUSE_RULE_SPECS}
