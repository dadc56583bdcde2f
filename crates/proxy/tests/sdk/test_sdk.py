"""The official TypeSafe Python SDK (PyPI typesafe-sdk 0.7.5) against `runlens serve`.

Run by scripts/test-sdk.sh, which starts the server (local backend) and sets RUNLENS_URL.
Checks that the SDK's own typed parsing accepts runlens's answers and error bodies.
"""

import os
import unittest

from typesafe_sdk import (
    Choice,
    ChoiceAnswer,
    Noul,
    NoulAnswer,
    Score,
    ScoreAnswer,
    TypeSafeBadRequestError,
    TypeSafeClient,
    TypeSafeUnprocessableEntityError,
)

STATE = {"subject": "Duplicate charge", "message": "I was charged twice for my subscription. Please refund one."}
LEVELS = ["Can wait", "Needs attention this week", "Needs attention today"]
LOCAL_MODEL = "sparrow-nano-general-v1.1"


def questions():
    return {
        "billing": Noul(instructions="Is this message about billing?"),
        "spam": Noul(criteria={"true": "Unsolicited advertising"}),
        "team": Choice(
            instructions="Which team should handle this?",
            criteria={"billing": "Payments, invoicing, refunds", "technical": "Bugs, outages", "other": None},
        ),
        "urgency": Score(instructions="How urgent is this message?", criteria=LEVELS),
    }


class SdkAgainstRunlens(unittest.TestCase):
    def setUp(self):
        # No retries: a failure must show up as the first error, not be papered over.
        self.client = TypeSafeClient(
            api_key=os.environ["TYPESAFE_API_KEY"], base_url=os.environ["RUNLENS_URL"], compression=False
        )
        self.client.__enter__()

    def tearDown(self):
        self.client.__exit__(None, None, None)

    def test_noul_choice_and_score_answers_parse_into_typed_objects(self):
        resp = self.client.system_one(state=STATE, questions=questions())
        self.assertEqual(resp.model, LOCAL_MODEL)
        self.assertEqual(set(resp.nouls), {"billing", "spam"})
        for answer in resp.nouls.values():
            self.assertIsInstance(answer, NoulAnswer)
            self.assertGreaterEqual(answer.noul, 0.0)
            self.assertLessEqual(answer.noul, 1.0)
        team = resp.choices["team"]
        self.assertIsInstance(team, ChoiceAnswer)
        self.assertIn(team.choice, {"billing", "technical", "other"})
        self.assertEqual(list(team.probabilities), ["billing", "technical", "other"])
        self.assertAlmostEqual(sum(team.probabilities.values()), 1.0, delta=1e-3)
        self.assertEqual(team.choice, max(team.probabilities, key=team.probabilities.get))
        urgency = resp.scores["urgency"]
        self.assertIsInstance(urgency, ScoreAnswer)
        self.assertEqual(urgency.legend, {0: LEVELS[0], 1: LEVELS[1], 2: LEVELS[2]})
        expected = sum(level * p for level, p in urgency.probabilities.items())
        self.assertAlmostEqual(urgency.score, expected, delta=2e-3)
        self.assertGreaterEqual(urgency.confidence, 0.0)
        self.assertLessEqual(urgency.confidence, 1.0)

    def test_asking_again_gives_identical_answers(self):
        first = self.client.system_one(state=STATE, questions=questions())
        second = self.client.system_one(state=STATE, questions=questions())
        self.assertEqual(first.nouls, second.nouls)
        self.assertEqual(first.choices, second.choices)
        self.assertEqual(first.scores, second.scores)

    def test_string_state_and_pinned_model_name_are_accepted(self):
        resp = self.client.system_one(
            state="The light is on.", questions={"on": Noul(instructions="Is the light on?")}, model="jev-1.13.0"
        )
        self.assertEqual(resp.model, LOCAL_MODEL)
        self.assertIn("on", resp.nouls)

    def test_too_many_score_levels_is_a_bad_request_with_the_api_message(self):
        levels = [f"level {i}" for i in range(11)]
        with self.assertRaises(TypeSafeBadRequestError) as caught:
            self.client.system_one(state=STATE, questions={"q": Score(criteria=levels)})
        self.assertEqual(caught.exception.status, 400)
        self.assertIn("Too many score levels. Must have at most 10 levels.", str(caught.exception))

    def test_too_many_choices_is_a_bad_request(self):
        criteria = {f"label{i}": None for i in range(256)}
        with self.assertRaises(TypeSafeBadRequestError) as caught:
            self.client.system_one(state=STATE, questions={"q": Choice(criteria=criteria)})
        self.assertIn("Too many choices. Must have at most 255 choices.", str(caught.exception))

    def test_schema_errors_are_unprocessable_with_located_messages(self):
        with self.assertRaises(TypeSafeUnprocessableEntityError) as caught:
            self.client.system_one(state=STATE, questions={"q": Noul(instructions="?")}, extra_body={"state": 5})
        self.assertEqual(caught.exception.status, 422)
        self.assertIn("state.str: Input should be a valid string", str(caught.exception))

    def test_models_list_names_the_local_model(self):
        names = [m.name for m in self.client.models.list().models]
        self.assertEqual(names, [LOCAL_MODEL])

    def test_large_zstd_compressed_bodies_are_accepted(self):
        try:
            zstd_client = TypeSafeClient(
                api_key=os.environ["TYPESAFE_API_KEY"], base_url=os.environ["RUNLENS_URL"], compression="zstd"
            )
        except Exception as exc:  # the optional `zstd` extra is missing
            self.skipTest(f"zstd unavailable: {exc}")
        long_state = {"message": "I was charged twice. " * 200}
        with zstd_client:
            resp = zstd_client.system_one(state=long_state, questions=questions())
        self.assertEqual(set(resp.nouls), {"billing", "spam"})


if __name__ == "__main__":
    unittest.main(verbosity=2)
