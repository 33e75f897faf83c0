"""Who is using the app: the one local user, or a teacher signed in through the school's
OpenID Connect provider (Streamlit's ``st.login`` / ``st.user``, Authlib under it).

Server mode is chosen by the person starting the app (``QG_STUDIO_MODE=server``, set by
``make server``), never by the presence of a secrets file, and it fails closed: without
an ``[auth]`` section in ``.streamlit/secrets.toml`` nobody gets in.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import streamlit as st

from qg_studio.store import LOCAL_USER
from qg_studio.ui.text import plain

MODE_ENV = "QG_STUDIO_MODE"
LOCAL_LABEL = "teacher"  # how the local user's own edits have always been recorded


@dataclass(frozen=True)
class User:
    id: str  # the store's owner key: stable per person and provider
    label: str  # what history shows: an email or a name


LOCAL = User(LOCAL_USER, LOCAL_LABEL)


def server_mode() -> bool:
    return os.environ.get(MODE_ENV, "").strip().lower() == "server"


def allowed(claims: dict, domains: list[str] | None) -> bool:
    """Whether the school lets this account in: any account when no domains are set,
    else a verified email address of one of the school's domains."""
    if not domains:
        return True
    email = str(claims.get("email") or "")
    domain = email.rsplit("@", 1)[-1].lower() if "@" in email else ""
    return claims.get("email_verified", True) is not False and domain in {
        d.strip().lower() for d in domains
    }


def _allowed_domains() -> list[str] | None:
    try:
        return list(st.secrets.get("qg_studio", {}).get("allowed_email_domains", []))
    except Exception:  # no secrets file: nothing to restrict (sign-in is refused anyway)
        return None


def signed_in_user() -> User | None:
    """The signed-in teacher (server mode) or the local user; None when sign-in is due."""
    if not server_mode():
        return LOCAL
    if not _logged_in():
        return None
    claims = st.user.to_dict()
    sub = str(claims.get("sub") or "")
    if not sub or not allowed(claims, _allowed_domains()):
        return None
    # iss + sub is what OIDC promises to be unique and stable; an email can be reassigned.
    label = str(claims.get("email") or claims.get("name") or sub)
    return User(f"{claims.get('iss', '')}|{sub}", label)


def _logged_in() -> bool:
    # Without sign-in settings Streamlit's st.user has no is_logged_in: nobody is signed in.
    if _providers() is None:
        return False
    return bool(getattr(st.user, "is_logged_in", False))


def _providers() -> list[str | None] | None:
    """Named providers under ``[auth]`` (``[auth.google]``…), [None] for one unnamed one."""
    try:
        auth = st.secrets.get("auth")
    except Exception:  # no secrets file at all: Streamlit raises its own error type
        return None
    if not auth:
        return None
    named = [name for name, value in auth.items() if hasattr(value, "items")]
    if named:
        return named
    return [None] if auth.get("server_metadata_url") else None


def require_user() -> User:
    """The current user; in server mode, the sign-in screen until someone signs in."""
    user = signed_in_user()
    if user is not None:
        if server_mode():
            with st.sidebar:
                st.caption(f"Signed in as {plain(user.label)}")
                st.button("Sign out", key="sign_out", on_click=st.logout)
        return user
    st.title("QG Studio")
    if _logged_in():  # signed in, but not with an account the school allows
        st.error(
            f"{plain(st.user.to_dict().get('email') or 'This account')} is not one of the "
            "school's accounts. Sign out, then sign in with your school account."
        )
        st.button("Sign out", key="sign_out", on_click=st.logout)
        st.stop()
    providers = _providers()
    if providers is None:
        st.error(
            "This server is in sign-in mode but has no sign-in provider configured: "
            "add an [auth] section to .streamlit/secrets.toml (see README, "
            '"Two modes").'
        )
        st.stop()
    st.write("Sign in with your school account to see your projects.")
    for provider in providers:
        title = f"Sign in with {provider}" if provider else "Sign in"
        st.button(
            title,
            key=f"sign_in_{provider}",
            type="primary",
            on_click=st.login,
            args=(provider,) if provider else (),
        )
    st.stop()
    raise AssertionError("st.stop() returned")  # for type checkers
