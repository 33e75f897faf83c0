"""The TOML reader: the standard library's from Python 3.11, the same parser (tomli) on 3.10."""

try:
    from tomllib import TOMLDecodeError
    from tomllib import load
    from tomllib import loads
except ModuleNotFoundError:  # Python 3.10
    from tomli import TOMLDecodeError
    from tomli import load
    from tomli import loads

__all__ = ["TOMLDecodeError", "load", "loads"]
