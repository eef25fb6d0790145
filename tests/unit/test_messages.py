"""What the rules say: a Message is French until translated; a plural is chosen by its count."""

from app.rules import N_, Np_, Refusal


def test_a_message_says_its_french_sentence_with_its_values_and_nested_messages():
    range_ = N_("de 1 à %(top)s", top=104)

    said = N_("%(card)s n’est pas une carte de ce jeu : %(range)s.", card=105, range=range_)

    assert str(said) == "105 n’est pas une carte de ce jeu : de 1 à 104."


def test_a_plural_message_chooses_its_form_by_its_count_as_french_does():
    def games(num):
        return Np_("%(num)d partie importée.", "%(num)d parties importées.", num)

    assert [str(games(n)) for n in (0, 1, 2)] == [
        "0 partie importée.",
        "1 partie importée.",
        "2 parties importées.",
    ]


def test_a_refusal_keeps_each_fields_reason_apart_from_the_whole_forms():
    refusal = Refusal({2: N_("trop")}, [N_("Il faut 3 nombres de têtes, un par joueur.")])

    assert refusal.fields == {2: N_("trop")}
    assert [str(message) for message in refusal.whole] == [
        "Il faut 3 nombres de têtes, un par joueur."
    ]
