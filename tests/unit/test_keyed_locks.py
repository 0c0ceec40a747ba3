"""The per-persona create lock: one at a time per key, and forgotten once nobody uses it."""

from __future__ import annotations

import threading
import time

from omoide.service.keyed_locks import KeyedLocks


def test_a_key_is_forgotten_once_nobody_holds_or_waits_for_it() -> None:
    locks = KeyedLocks()
    for i in range(1000):
        with locks.hold(f"persona-{i}"):
            assert len(locks) == 1
    assert len(locks) == 0


def test_holders_of_one_key_run_one_at_a_time_and_the_entry_outlives_a_waiter() -> None:
    locks = KeyedLocks()
    inside, most, order = 0, 0, []
    guard = threading.Lock()

    def work(n: int) -> None:
        nonlocal inside, most
        with locks.hold("rin"):
            with guard:
                inside += 1
                most = max(most, inside)
            time.sleep(0.01)
            order.append(n)
            with guard:
                inside -= 1

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert most == 1 and sorted(order) == list(range(8))
    assert len(locks) == 0


def test_other_keys_are_not_blocked() -> None:
    locks = KeyedLocks()
    with locks.hold("rin"):
        done = threading.Event()

        def other() -> None:
            with locks.hold("kai"):
                done.set()

        threading.Thread(target=other).start()
        assert done.wait(5)
        assert len(locks) in (1, 2)
    assert done.is_set()
