"""Who may sign in on a school server, and that the local mode needs no sign-in."""

from __future__ import annotations

from qg_studio.store import LOCAL_USER
from qg_studio.ui.auth import MODE_ENV
from qg_studio.ui.auth import allowed
from qg_studio.ui.auth import signed_in_user


def test_only_verified_addresses_of_the_school_get_in_when_domains_are_set():
    school = ["Example-School.org"]
    assert allowed({"email": "ada@example-school.org"}, school)
    assert allowed({"email": "ada@EXAMPLE-school.org", "email_verified": True}, school)
    assert not allowed({"email": "ada@example-school.org", "email_verified": False}, school)
    assert not allowed({"email": "eve@gmail.com"}, school)
    assert not allowed({"email": "eve@example-school.org.evil.test"}, school)
    assert not allowed({"sub": "no-email"}, school)
    assert allowed({"sub": "anyone"}, None) and allowed({"sub": "anyone"}, [])


def test_local_mode_is_the_one_local_user_without_sign_in(monkeypatch):
    monkeypatch.delenv(MODE_ENV, raising=False)
    user = signed_in_user()
    assert (user.id, user.label) == (LOCAL_USER, "teacher")
