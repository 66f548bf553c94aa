"""The extension categories the profile tests use: a deployment registers them before it imports a profile
that carries them (an unregistered ext: category is refused, see docs/engine.md#a2p-categories)."""

from pathlib import Path

from memql.engine.context import EngineConfig

# an a2p profile document the profile, CLI and progress tests import
A2P_PROFILE = Path(__file__).parent / "fixtures" / "a2p-profile.json"

CATEGORIES = {"ext:acme:routines": "standard", "ext:acme:team": "standard", "ext:acme:x": "standard"}
PROFILE_CONFIG = EngineConfig(categories=CATEGORIES)
CLI_CATEGORIES = [arg for name, level in CATEGORIES.items() for arg in ("--category", f"{name}={level}")]
