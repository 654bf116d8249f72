"""Snippets of the ``layer-boundary`` level: the service hands check-and-place to
storage, whose place operation checks free capacity outside the lock.

Each entry is ``(python, javascript)``.
"""

LAPSED = ('''def lapsed_holds(self, now):
    """Unconfirmed holds that have run out at ``now`` but are not marked yet."""
    return [hold for hold in self._holds.values() if hold.state == HELD and hold.lapsed(now)]''', '''/** Unconfirmed holds that have run out at `now` but are not marked yet. */
async lapsedHolds(now) {
  await roundTrip();
  return [...this._holds.values()].filter((hold) => hold.state === HELD && hold.lapsed(now));
}''')

PLACE = {
    "gold": ('''def place_hold(self, hold, limit, now):
    """Store ``hold`` unless the {{resource_h}} has less than its {{qty_h}} free at ``now``."""
    {{[}}
    with self.locked(hold.{{resource}}):
        held = self.held_{{qty_f}}(hold.{{resource}}, now)
        if held + hold.{{qty_f}} > limit:
            raise {{ErrExhausted}}(
                f"only {limit - held} {{qty_unit_h}} of {{resource_h}} {hold.{{resource}}} are free",
                code=hold.{{resource}}, requested=hold.{{qty_f}},
            )
        return self.add_hold(hold)
    {{]}}''', '''/** Store `hold` unless the {{resource_h}} has less than its {{qty_h}} free at `now`. */
async placeHold(hold, limit, now) {
  {{[}}
  return this.locked(hold.{{resource}}, async () => {
    const held = await this.held{{QtyF}}(hold.{{resource}}, now);
    if (held + hold.{{qty_f}} > limit) {
      throw new {{ErrExhausted}}(`only ${limit - held} {{qty_unit_h}} of {{resource_h}} ${hold.{{resource}}} are free`, {
        code: hold.{{resource}}, requested: hold.{{qty_f}},
      });
    }
    return this.addHold(hold);
  });
  {{]}}
}'''),
    "faulty": ('''def place_hold(self, hold, limit, now):
    """Store ``hold`` unless the {{resource_h}} has less than its {{qty_h}} free at ``now``."""
    held = self.held_{{qty_f}}(hold.{{resource}}, now)
    if held + hold.{{qty_f}} > limit:
        raise {{ErrExhausted}}(
            f"only {limit - held} {{qty_unit_h}} of {{resource_h}} {hold.{{resource}}} are free",
            code=hold.{{resource}}, requested=hold.{{qty_f}},
        )
    with self.locked(hold.{{resource}}):
        return self.add_hold(hold)''', '''/** Store `hold` unless the {{resource_h}} has less than its {{qty_h}} free at `now`. */
async placeHold(hold, limit, now) {
  const held = await this.held{{QtyF}}(hold.{{resource}}, now);
  if (held + hold.{{qty_f}} > limit) {
    throw new {{ErrExhausted}}(`only ${limit - held} {{qty_unit_h}} of {{resource_h}} ${hold.{{resource}}} are free`, {
      code: hold.{{resource}}, requested: hold.{{qty_f}},
    });
  }
  return this.locked(hold.{{resource}}, () => this.addHold(hold));
}'''),
    # A shallow fix: the comparison and the write are under the lock, the read is not.
    "masking": ('''def place_hold(self, hold, limit, now):
    """Store ``hold`` unless the {{resource_h}} has less than its {{qty_h}} free at ``now``."""
    held = self.held_{{qty_f}}(hold.{{resource}}, now)
    with self.locked(hold.{{resource}}):
        if held + hold.{{qty_f}} > limit:
            raise {{ErrExhausted}}(
                f"only {limit - held} {{qty_unit_h}} of {{resource_h}} {hold.{{resource}}} are free",
                code=hold.{{resource}}, requested=hold.{{qty_f}},
            )
        return self.add_hold(hold)''', '''/** Store `hold` unless the {{resource_h}} has less than its {{qty_h}} free at `now`. */
async placeHold(hold, limit, now) {
  const held = await this.held{{QtyF}}(hold.{{resource}}, now);
  return this.locked(hold.{{resource}}, async () => {
    if (held + hold.{{qty_f}} > limit) {
      throw new {{ErrExhausted}}(`only ${limit - held} {{qty_unit_h}} of {{resource_h}} ${hold.{{resource}}} are free`, {
        code: hold.{{resource}}, requested: hold.{{qty_f}},
      });
    }
    return this.addHold(hold);
  });
}'''),
    "alt_acquire": ('''def place_hold(self, hold, limit, now):
    """Store ``hold`` unless the {{resource_h}} has less than its {{qty_h}} free at ``now``."""
    lock = self.lock_for(hold.{{resource}})
    lock.acquire()
    try:
        held = self.held_{{qty_f}}(hold.{{resource}}, now)
        if held + hold.{{qty_f}} > limit:
            raise {{ErrExhausted}}(
                f"only {limit - held} {{qty_unit_h}} of {{resource_h}} {hold.{{resource}}} are free",
                code=hold.{{resource}}, requested=hold.{{qty_f}},
            )
        return self.add_hold(hold)
    finally:
        lock.release()''', '''/** Store `hold` unless the {{resource_h}} has less than its {{qty_h}} free at `now`. */
async placeHold(hold, limit, now) {
  const release = await this.acquire(hold.{{resource}});
  try {
    const held = await this.held{{QtyF}}(hold.{{resource}}, now);
    if (held + hold.{{qty_f}} > limit) {
      throw new {{ErrExhausted}}(`only ${limit - held} {{qty_unit_h}} of {{resource_h}} ${hold.{{resource}}} are free`, {
        code: hold.{{resource}}, requested: hold.{{qty_f}},
      });
    }
    return await this.addHold(hold);
  } finally {
    release();
  }
}'''),
    "alt_verify": ('''def place_hold(self, hold, limit, now):
    """Store ``hold`` unless the {{resource_h}} has less than its {{qty_h}} free at ``now``."""
    with self.locked(hold.{{resource}}):
        self.add_hold(hold)
        held = self.held_{{qty_f}}(hold.{{resource}}, now)
        if held > limit:
            # Over the limit with this hold in place: take it back out.
            self.remove_hold(hold.hold_id)
            raise {{ErrExhausted}}(
                f"only {limit - held + hold.{{qty_f}}} {{qty_unit_h}} of {{resource_h}} {hold.{{resource}}} are free",
                code=hold.{{resource}}, requested=hold.{{qty_f}},
            )
        return hold''', '''/** Store `hold` unless the {{resource_h}} has less than its {{qty_h}} free at `now`. */
async placeHold(hold, limit, now) {
  return this.locked(hold.{{resource}}, async () => {
    await this.addHold(hold);
    const held = await this.held{{QtyF}}(hold.{{resource}}, now);
    if (held > limit) {
      // Over the limit with this hold in place: take it back out.
      await this.removeHold(hold.holdId);
      throw new {{ErrExhausted}}(`only ${limit - held + hold.{{qty_f}}} {{qty_unit_h}} of {{resource_h}} `
        + `${hold.{{resource}}} are free`, { code: hold.{{resource}}, requested: hold.{{qty_f}} });
    }
    return hold;
  });
}'''),
    "call": ('''now = self._clock.now()
hold = self._repository.place_hold(
    Hold(
        self._repository.next_hold_id(self._settings.hold_id_prefix),
        code, {{ref_f}}, {{qty_f}}, now, now + self._settings.hold_ttl_seconds,
    ),
    record.{{cap_f}},
    now,
)''', '''const now = this._clock.now();
const hold = await this._repository.placeHold(
  new Hold(this._repository.nextHoldId(this._settings.holdIdPrefix), code, {{ref_f}}, {{qty_f}}, now,
    now + this._settings.holdTtlSeconds),
  record.{{cap_f}},
  now,
);'''),
}
