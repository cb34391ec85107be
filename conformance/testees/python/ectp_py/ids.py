"""Where a run's own ids start: the producer's grant ids and the consumer's attempt ids."""

from __future__ import annotations

WINDOW = 2**32  # ids in one epoch's window
WINDOWS = 2**20  # windows before they repeat (the last ends below 2**53, as the TypeScript cores' do)


def id_before_epoch(epoch: int) -> int:
    """The id before the first of epoch `epoch`'s run: 0 for epoch 1, each epoch a window of its own.

    SPEC 3.5 and 3.6 ask ids to be unique within an epoch only, but a ReadComplete names its grant
    by id alone and a ReadGrant or ReadReject its attempt by id alone: with every run counting from
    1, an ACK sent before a producer restarted would release the new run's grant of the same id, and
    a reply to a consumer's run before a restart would answer the new run's attempt.
    """
    return ((epoch - 1) % WINDOWS) * WINDOW
