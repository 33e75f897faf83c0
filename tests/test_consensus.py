"""The question written for a given answer is the wording most of the model's beams agree
on, and the one its round trip leads back to the answer: not the likeliest outlier."""

from __future__ import annotations

from qg_studio.generation.consensus import consensus


def test_the_wording_the_others_agree_with_is_chosen_over_the_likeliest():
    beams = [
        "Who kept three geese by the pond?",  # the likeliest, about someone else's answer
        "Who was a lonely old miller?",
        "Who was the lonely old miller by the river?",
        "What kind of miller was he?",
    ]
    assert consensus(beams) == 2  # it shares most words with the other three
    # On a tie the likelier (earlier) one stays.
    assert consensus(["Where did the fox go?", "Where did the fox go?"]) == 0
    assert consensus(["Who helped the hen?"]) == 0


def test_a_wording_the_answerer_leads_back_to_the_answer_counts_for_more():
    beams = [
        "Where did the fox hide?",
        "Where did the fox hide the cheese?",
        "Where did the fox run?",
    ]
    assert consensus(beams) == 0  # it agrees most with the other two
    # Only the third, answered, leads back to "into the barn": the trip outweighs the
    # small difference in agreement (0.73 against 0.82, mean ROUGE-L).
    assert consensus(beams, [0.0, 0.0, 1.0]) == 2
    # A trip that fails them all alike changes nothing.
    assert consensus(beams, [0.2, 0.2, 0.2]) == 0
