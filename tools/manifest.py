"""The plugin manifests (HACKING.md, "Adding a plugin") for Python readers.

  plugins()          the names on the line of plugins/plugins.manifest
  manifest(name)     plugins/<name>/plugin.manifest as a dict of strings
  words(name, key)   one key's value split on blanks ([] when empty)
"""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(path):
    """KEY = VALUE lines of PATH as a dict; # comments and blanks skipped."""
    out = {}
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.lstrip().startswith("#"):
                key, _, value = line.partition("=")
                out[key.strip()] = value.strip()
    return out


def plugins():
    return read("plugins/plugins.manifest")["plugins"].split()


def manifest(name):
    return read(f"plugins/{name}/plugin.manifest")


def words(name, key):
    return manifest(name).get(key, "").split()
