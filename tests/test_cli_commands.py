"""The command line's subcommands and the size of ``play --random``: ``coinsrow --help``
lists every subcommand, each of which answers ``--help``; ``play --random N`` past its
bound is one line and exit status 2, before any coin is made."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from coinsrow._cli import RANDOM_COINS, RANDOM_MAX_COINS, SUBCOMMANDS

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "coinsrow", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_the_help_lists_every_subcommand():
    assert {"demo", "play", "silver"} <= set(SUBCOMMANDS)
    result = run("--help")
    assert result.returncode == 0 and result.stderr == ""
    text = " ".join(result.stdout.split())
    for name in SUBCOMMANDS:
        assert f"'coinsrow {name}" in text, name


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_subcommand_has_its_help(name):
    result = run(name, "--help")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith(f"usage: coinsrow {name}")


@pytest.mark.parametrize("count", [RANDOM_MAX_COINS + 1, 10**20, 10**100, 2**64])
def test_play_random_past_the_bound_is_one_line(count):
    result = run("play", "--random", str(count))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"at most {RANDOM_MAX_COINS} coins" in result.stderr
    assert result.stderr.startswith(f"coinsrow: error: --random {str(count)[:20]}")


@pytest.mark.parametrize("count", [0, -5])
def test_play_random_needs_a_coin(count):
    result = run("play", "--random", str(count))
    assert result.returncode == 2 and "at least one coin" in result.stderr


def test_play_random_at_the_bound_plays():
    result = run("play", "--json", "--random", str(RANDOM_MAX_COINS), "--seed", "7",
                 stdin="l\nquit\n")
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout.splitlines()[-1])
    low, high = RANDOM_COINS
    assert [m["player"] for m in outcome["moves"]] == ["human", "engine"]
    assert all(low <= m["coin"] <= high for m in outcome["moves"])
    assert outcome["human"] == outcome["moves"][0]["coin"]
    assert outcome["engine"] == outcome["moves"][1]["coin"]
