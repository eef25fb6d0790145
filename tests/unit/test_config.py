"""Settings read from the environment as hosts give them."""

from app.platform.config import from_plain_environment


def test_trusted_hosts_and_former_keys_are_comma_separated_lists():
    settings = from_plain_environment(
        {"TRUSTED_HOSTS": "compteur.example, www.compteur.example", "SECRET_KEY_FALLBACKS": "old"}
    )

    assert settings["TRUSTED_HOSTS"] == ["compteur.example", "www.compteur.example"]
    assert settings["SECRET_KEY_FALLBACKS"] == ["old"]


def test_unset_lists_are_left_to_the_defaults():
    assert "TRUSTED_HOSTS" not in from_plain_environment({"TRUSTED_HOSTS": ""})
