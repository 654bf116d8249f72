'use strict';

/**
 * Time as a dependency. Code that reads `clock.now()` and waits with
 * `clock.sleep(ms)` can run against the real clock in production and against
 * a ManualClock in tests, where time moves only when the test says so and
 * timers fire in due order during `advance()`.
 *
 * Both clocks share one interface:
 *   now(): Date, millis(): number (wall), monotonic(): number (never goes back),
 *   setTimeout(fn, ms) -> handle, clearTimeout(handle), sleep(ms) -> Promise.
 */

/** The real clock. */
class SystemClock {
  now() {
    return new Date();
  }

  millis() {
    return Date.now();
  }

  monotonic() {
    return performance.now();
  }

  /**
   * @param {function(): void} fn
   * @param {number} ms
   */
  setTimeout(fn, ms) {
    return setTimeout(fn, ms);
  }

  clearTimeout(handle) {
    clearTimeout(handle);
  }

  /** @param {number} ms */
  sleep(ms) {
    return new Promise((resolve) => {
      setTimeout(resolve, ms);
    });
  }
}

/** A clock that moves only when told to. */
class ManualClock {
  /** @param {Date|string|number} [start] initial wall time */
  constructor(start = 0) {
    this.wall = new Date(start).getTime();
    if (Number.isNaN(this.wall)) throw new RangeError(`invalid start time: ${start}`);
    this.elapsed = 0;
    this.timers = [];
    this.nextId = 1;
  }

  now() {
    return new Date(this.wall);
  }

  millis() {
    return this.wall;
  }

  monotonic() {
    return this.elapsed;
  }

  /**
   * Schedule `fn` to run when the clock has advanced by `ms`.
   * @param {function(): void} fn
   * @param {number} ms
   * @returns {number} handle for clearTimeout
   */
  setTimeout(fn, ms) {
    const id = this.nextId;
    this.nextId += 1;
    this.timers.push({ id, due: this.elapsed + Math.max(0, ms), fn });
    this.timers.sort((a, b) => a.due - b.due || a.id - b.id);
    return id;
  }

  /** @param {number} handle */
  clearTimeout(handle) {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  /**
   * Resolves once the clock has been advanced by `ms`.
   * @param {number} ms
   */
  sleep(ms) {
    return new Promise((resolve) => {
      this.setTimeout(resolve, ms);
    });
  }

  /** Timers still waiting to fire. */
  get pending() {
    return this.timers.length;
  }

  /**
   * Move time forward, firing due timers in order. Timers scheduled by a
   * firing timer also fire if they fall due within the same advance.
   * @param {number} ms
   * @returns {number} how many timers fired
   */
  advance(ms) {
    if (!(ms >= 0)) throw new RangeError('a clock cannot move backwards');
    const target = this.elapsed + ms;
    let fired = 0;
    while (this.timers.length > 0 && this.timers[0].due <= target) {
      const timer = this.timers.shift();
      this.wall += timer.due - this.elapsed;
      this.elapsed = timer.due;
      timer.fn();
      fired += 1;
    }
    this.wall += target - this.elapsed;
    this.elapsed = target;
    return fired;
  }

  /**
   * Advance and then let promise callbacks (such as code after `await clock.sleep()`) run.
   * @param {number} ms
   */
  async tick(ms) {
    const target = this.elapsed + ms;
    while (this.timers.length > 0 && this.timers[0].due <= target) {
      this.advance(this.timers[0].due - this.elapsed);
      await new Promise((resolve) => {
        setImmediate(resolve);
      });
    }
    this.advance(target - this.elapsed);
    await new Promise((resolve) => {
      setImmediate(resolve);
    });
  }

  /**
   * Set the wall clock (e.g. to simulate an NTP correction). Monotonic time is untouched.
   * @param {Date|string|number} when
   */
  setWallTime(when) {
    this.wall = new Date(when).getTime();
  }
}

/** Measures elapsed time on a clock's monotonic source, with laps. */
class Stopwatch {
  /** @param {{monotonic: function(): number}} [clock] */
  constructor(clock = new SystemClock()) {
    this.clock = clock;
    this.startedAt = null;
    this.accumulated = 0;
    this.laps = [];
    this.lapStart = 0;
  }

  /** Start or resume. */
  start() {
    if (this.startedAt === null) this.startedAt = this.clock.monotonic();
    return this;
  }

  /** Pause, keeping the time measured so far. */
  stop() {
    if (this.startedAt !== null) {
      this.accumulated += this.clock.monotonic() - this.startedAt;
      this.startedAt = null;
    }
    return this;
  }

  get running() {
    return this.startedAt !== null;
  }

  /** Milliseconds measured while running. */
  get elapsed() {
    const live = this.startedAt === null ? 0 : this.clock.monotonic() - this.startedAt;
    return this.accumulated + live;
  }

  /**
   * Record a lap: the time since the previous lap (or the start).
   * @param {string} [label]
   * @returns {number} the lap's duration in ms
   */
  lap(label = `lap ${this.laps.length + 1}`) {
    const now = this.elapsed;
    const ms = now - this.lapStart;
    this.laps.push({ label, ms });
    this.lapStart = now;
    return ms;
  }

  /** Zero everything and stop. */
  reset() {
    this.startedAt = null;
    this.accumulated = 0;
    this.laps = [];
    this.lapStart = 0;
    return this;
  }
}

/**
 * The application clock from `settings.clock`: `mode` "system" or "manual"
 * (the latter starting at `start`, for demos and reproducible runs).
 * @param {object} settings
 * @returns {SystemClock|ManualClock}
 */
function fromSettings(settings) {
  const own = settings.clock ?? {};
  const mode = own.mode ?? 'system';
  if (mode === 'manual') return new ManualClock(own.start ?? '2024-01-01T00:00:00Z');
  if (mode !== 'system') throw new RangeError(`unknown clock mode: ${mode}`);
  return new SystemClock();
}

module.exports = { SystemClock, ManualClock, Stopwatch, fromSettings };
