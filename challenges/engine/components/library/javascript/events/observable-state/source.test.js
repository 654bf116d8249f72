'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { createStore, combineReducers, fromSettings } = require('./source');

function cart(state = { items: [], coupon: null }, action) {
  switch (action.type) {
    case 'cart/add':
      return { ...state, items: [...state.items, action.item] };
    case 'cart/coupon':
      return { ...state, coupon: action.code };
    default:
      return state;
  }
}

function user(state = { name: 'guest' }, action) {
  return action.type === 'user/login' ? { name: action.name } : state;
}

const reducer = combineReducers({ cart, user });

test('actions go through the reducer and state is frozen', () => {
  const store = createStore(reducer);
  store.dispatch({ type: 'cart/add', item: 'book' });
  assert.deepEqual(store.getState().cart.items, ['book']);
  assert.throws(() => {
    store.getState().cart.items.push('x');
  }, TypeError);
  assert.throws(() => store.dispatch({ kind: 'nope' }), /string type/);
});

test('subscribers hear only about their slice', () => {
  const store = createStore(reducer);
  const cartCalls = [];
  const userCalls = [];
  store.subscribe((s) => s.cart.items, (items, previous) => cartCalls.push([items.length, previous.length]));
  store.subscribe((s) => s.user.name, (name) => userCalls.push(name));
  store.dispatch({ type: 'cart/add', item: 'a' });
  store.dispatch({ type: 'cart/coupon', code: 'SAVE' });
  store.dispatch({ type: 'user/login', name: 'ann' });
  store.dispatch({ type: 'unknown' });
  assert.deepEqual(cartCalls, [[1, 0]]);
  assert.deepEqual(userCalls, ['ann']);
});

test('selectors returning fresh objects are compared shallowly', () => {
  const store = createStore(reducer);
  let calls = 0;
  store.subscribe((s) => ({ count: s.cart.items.length, coupon: s.cart.coupon }), () => {
    calls += 1;
  });
  store.dispatch({ type: 'user/login', name: 'x' });
  assert.equal(calls, 0);
  store.dispatch({ type: 'cart/coupon', code: 'A' });
  assert.equal(calls, 1);
});

test('dispatches from observers run after the current one, in order', () => {
  const store = createStore(reducer);
  const seen = [];
  store.subscribe((s) => s.user.name, (name) => {
    seen.push(`user ${name} sees ${store.getState().cart.items.length} items`);
    if (name === 'ann') store.dispatch({ type: 'cart/add', item: 'welcome-gift' });
  });
  store.subscribe((s) => s.cart.items.length, (n) => seen.push(`cart ${n}`));
  store.dispatch({ type: 'user/login', name: 'ann' });
  assert.deepEqual(seen, ['user ann sees 0 items', 'cart 1']);
});

test('batch notifies once', () => {
  const store = createStore(reducer);
  const lengths = [];
  store.subscribe((s) => s.cart.items.length, (n) => lengths.push(n));
  store.batch(() => {
    store.dispatch({ type: 'cart/add', item: 'a' });
    store.dispatch({ type: 'cart/add', item: 'b' });
    store.dispatch({ type: 'cart/add', item: 'c' });
  });
  assert.deepEqual(lengths, [3]);
});

test('undo walks back through bounded history', () => {
  const store = createStore(reducer, undefined, { historyLimit: 2 });
  for (const item of ['a', 'b', 'c']) store.dispatch({ type: 'cart/add', item });
  assert.equal(store.undo(), true);
  assert.deepEqual(store.getState().cart.items, ['a', 'b']);
  assert.equal(store.undo(), true);
  assert.equal(store.canUndo(), false);
  assert.equal(store.undo(), false);
  assert.deepEqual(store.getState().cart.items, ['a']);
});

test('middleware wraps dispatch; unsubscribe stops delivery', () => {
  const log = [];
  const logger = (api) => (next) => (action) => {
    const result = next(action);
    log.push(`${action.type} -> ${api.getState().cart.items.length}`);
    return result;
  };
  const store = createStore(reducer, undefined, { middleware: [logger] });
  let calls = 0;
  const stop = store.subscribe((s) => s.cart, () => {
    calls += 1;
  }, { immediate: true });
  store.dispatch({ type: 'cart/add', item: 'a' });
  stop();
  store.dispatch({ type: 'cart/add', item: 'b' });
  assert.equal(calls, 2);
  assert.deepEqual(log, ['cart/add -> 1', 'cart/add -> 2']);
  assert.equal(store.observers, 0);
});

test('fromSettings gives a merging store over the initial state', () => {
  const store = fromSettings({ events: { initialState: { theme: 'light' }, historyLimit: 1 } });
  store.dispatch({ type: 'set', values: { theme: 'dark' } });
  assert.equal(store.getState().theme, 'dark');
  store.undo();
  assert.equal(store.getState().theme, 'light');
  assert.deepEqual(fromSettings({}).getState(), {});
});
