'use strict';

/**
 * Observer pattern around one state object.
 *
 * State changes only by dispatching actions through a reducer
 * (`(state, action) => newState`), so every change is an explicit, loggable
 * event. Observers subscribe with a selector and are called only when the
 * selected value changes (compared shallowly), not on every dispatch:
 *
 *   store.subscribe((s) => s.cart.items, (items, previous) => renderCart(items));
 *
 * Dispatches made by observers are queued and run after the current one
 * finishes, so observers always see states in order. `batch` groups several
 * dispatches into a single notification, and `undo` steps back through a
 * bounded history.
 */

function shallowEqual(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && Object.is(a[key], b[key]));
}

function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Build a reducer for an object state from one reducer per key.
 * @param {Record<string, function(*, object): *>} reducers
 * @returns {function(object, object): object}
 */
function combineReducers(reducers) {
  const keys = Object.keys(reducers);
  return (state = {}, action) => {
    let changed = false;
    const next = {};
    for (const key of keys) {
      next[key] = reducers[key](state[key], action);
      if (!Object.is(next[key], state[key])) changed = true;
    }
    return changed || Object.keys(state).length !== keys.length ? next : state;
  };
}

/**
 * Create a store.
 * @param {function(*, {type: string}): *} reducer must return the same object when nothing changed
 * @param {*} [initialState]
 * @param {{historyLimit?: number, middleware?: Array<function(object, function): function>}} [options]
 * @returns {object} store with getState, dispatch, subscribe, batch, undo, canUndo
 */
function createStore(reducer, initialState, options = {}) {
  const historyLimit = options.historyLimit ?? 50;
  let state = deepFreeze(reducer(initialState, { type: '@@init' }));
  const history = [];
  const subscribers = new Set();
  const queue = [];
  let dispatching = false;
  let batchDepth = 0;
  let pendingNotify = false;

  function notify() {
    if (batchDepth > 0) {
      pendingNotify = true;
      return;
    }
    for (const sub of [...subscribers]) {
      if (!subscribers.has(sub)) continue;
      const selected = sub.selector(state);
      if (shallowEqual(selected, sub.last)) continue;
      const previous = sub.last;
      sub.last = selected;
      sub.listener(selected, previous);
    }
  }

  function apply(action) {
    if (!action || typeof action.type !== 'string') throw new TypeError('actions need a string type');
    const next = reducer(state, action);
    if (next === undefined) throw new TypeError(`reducer returned undefined for ${action.type}`);
    if (Object.is(next, state)) return false;
    history.push(state);
    if (history.length > historyLimit) history.shift();
    state = deepFreeze(next);
    return true;
  }

  function baseDispatch(action) {
    queue.push(action);
    if (dispatching) return action;
    dispatching = true;
    try {
      while (queue.length > 0) {
        if (apply(queue.shift())) notify();
      }
    } finally {
      dispatching = false;
      queue.length = 0;
    }
    return action;
  }

  const api = { getState: () => state };
  const chain = (options.middleware ?? []).map((mw) => mw(api));
  const dispatch = chain.reduceRight((next, mw) => mw(next), baseDispatch);

  /**
   * Observe part of the state.
   * @param {function(*): *} selector
   * @param {function(*, *): void} listener called with (selected, previousSelected)
   * @param {{immediate?: boolean}} [opts] also call once right away
   * @returns {function(): void} unsubscribe
   */
  function subscribe(selector, listener, opts = {}) {
    const sub = { selector, listener, last: selector(state) };
    subscribers.add(sub);
    if (opts.immediate) listener(sub.last, undefined);
    return () => subscribers.delete(sub);
  }

  /**
   * Run `fn` and notify observers once at the end, however many dispatches it made.
   * @param {function(): void} fn
   */
  function batch(fn) {
    batchDepth += 1;
    try {
      fn();
    } finally {
      batchDepth -= 1;
      if (batchDepth === 0 && pendingNotify) {
        pendingNotify = false;
        notify();
      }
    }
  }

  /** Step back to the previous state; returns false when there is none. */
  function undo() {
    if (history.length === 0) return false;
    state = history.pop();
    notify();
    return true;
  }

  return Object.freeze({
    getState: api.getState,
    dispatch,
    subscribe,
    batch,
    undo,
    canUndo: () => history.length > 0,
    get observers() {
      return subscribers.size;
    },
  });
}

/**
 * A store over `settings.events.initialState` whose reducer merges `{type: 'set', values}`
 * actions; pass your own reducer as the second argument for anything richer.
 * @param {object} settings
 * @param {function} [reducer]
 */
function fromSettings(settings, reducer) {
  const own = settings.events ?? {};
  const merge = (state, action) => (action.type === 'set' ? { ...state, ...action.values } : state);
  return createStore(reducer ?? merge, own.initialState ?? {}, { historyLimit: own.historyLimit ?? 50 });
}

module.exports = { createStore, combineReducers, fromSettings };
