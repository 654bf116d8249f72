'use strict';

/**
 * Readiness as a graph. Components (database pool, cache, message consumer,
 * HTTP API) declare what they depend on and report their own state:
 *
 *   graph.add('db');
 *   graph.add('cache');
 *   graph.add('api', ['db', 'cache']);
 *   graph.setReady('db');  graph.setFailed('cache', 'connection refused');
 *
 * A component is effectively ready only if it and everything it depends on
 * are ready; otherwise it is "blocked", and `report()` names the root causes
 * (the failed or pending components at the bottom of the chain) instead of
 * every symptom above them. `startupOrder()` gives a dependency-respecting
 * order to start components in, and cycles are rejected when declared.
 */

const STATES = new Set(['pending', 'ready', 'failed']);

/** Dependency-aware readiness tracker. */
class ReadinessGraph {
  /** @param {{now?: function(): Date}} [options] */
  constructor(options = {}) {
    this.now = options.now ?? (() => new Date());
    this.nodes = new Map();
  }

  /**
   * Declare a component.
   * @param {string} name
   * @param {string[]} [dependsOn] components that must already be declared
   * @returns {this}
   */
  add(name, dependsOn = []) {
    if (this.nodes.has(name)) throw new Error(`component ${name} is already declared`);
    for (const dep of dependsOn) {
      if (!this.nodes.has(dep)) throw new Error(`${name} depends on undeclared component ${dep}`);
    }
    this.nodes.set(name, { name, dependsOn: [...dependsOn], state: 'pending', reason: null, since: this.now() });
    return this;
  }

  /**
   * Add a dependency after declaration; refuses edges that would form a cycle.
   * @param {string} name
   * @param {string} dep
   */
  addDependency(name, dep) {
    const node = this.node(name);
    this.node(dep);
    if (dep === name || this.dependsOnTransitively(dep, name)) {
      throw new Error(`${name} -> ${dep} would create a dependency cycle`);
    }
    if (!node.dependsOn.includes(dep)) node.dependsOn.push(dep);
    return this;
  }

  node(name) {
    const node = this.nodes.get(name);
    if (!node) throw new Error(`unknown component ${name}`);
    return node;
  }

  dependsOnTransitively(from, target) {
    const stack = [from];
    const seen = new Set();
    while (stack.length) {
      const current = stack.pop();
      if (current === target) return true;
      if (seen.has(current)) continue;
      seen.add(current);
      stack.push(...this.nodes.get(current).dependsOn);
    }
    return false;
  }

  set(name, state, reason = null) {
    if (!STATES.has(state)) throw new RangeError(`unknown state ${state}`);
    const node = this.node(name);
    if (node.state !== state || node.reason !== reason) {
      node.state = state;
      node.reason = reason;
      node.since = this.now();
    }
    return this;
  }

  /** @param {string} name */
  setReady(name) {
    return this.set(name, 'ready');
  }

  /**
   * @param {string} name
   * @param {string|Error} reason
   */
  setFailed(name, reason) {
    return this.set(name, 'failed', reason instanceof Error ? reason.message : String(reason));
  }

  /** @param {string} name */
  setPending(name) {
    return this.set(name, 'pending');
  }

  /**
   * Root causes keeping `name` from being ready: the not-ready components
   * in its dependency closure whose own dependencies are all ready.
   * @param {string} name
   * @returns {string[]}
   */
  rootCauses(name) {
    const causes = new Set();
    const seen = new Set();
    const visit = (current) => {
      if (seen.has(current)) return;
      seen.add(current);
      const node = this.nodes.get(current);
      const blockedDeps = node.dependsOn.filter((dep) => !this.isReady(dep));
      blockedDeps.forEach(visit);
      if (node.state !== 'ready' && blockedDeps.length === 0) causes.add(current);
    };
    visit(name);
    return [...causes].sort();
  }

  /**
   * Whether `name` and all its dependencies are ready.
   * @param {string} name
   */
  isReady(name) {
    const node = this.node(name);
    return node.state === 'ready' && node.dependsOn.every((dep) => this.isReady(dep));
  }

  /**
   * Components in an order where each comes after its dependencies
   * (ties broken by declaration order).
   * @returns {string[]}
   */
  startupOrder() {
    const order = [];
    const placed = new Set();
    const place = (name) => {
      if (placed.has(name)) return;
      for (const dep of this.nodes.get(name).dependsOn) place(dep);
      placed.add(name);
      order.push(name);
    };
    for (const name of this.nodes.keys()) place(name);
    return order;
  }

  /**
   * Full report for a readiness endpoint.
   * @returns {{ready: boolean, httpStatus: number, components: Record<string, object>, rootCauses: string[]}}
   */
  report() {
    const components = {};
    const allCauses = new Set();
    for (const [name, node] of this.nodes) {
      const ready = this.isReady(name);
      const causes = ready ? [] : this.rootCauses(name);
      causes.forEach((cause) => allCauses.add(cause));
      components[name] = {
        state: node.state === 'ready' && !ready ? 'blocked' : node.state,
        reason: node.reason,
        since: node.since.toISOString(),
        blockedBy: causes.filter((cause) => cause !== name),
      };
    }
    const ready = [...this.nodes.keys()].every((name) => this.isReady(name));
    return { ready, httpStatus: ready ? 200 : 503, components, rootCauses: [...allCauses].sort() };
  }
}

/**
 * Graph declared in `settings.health.components` ({ name: [dependencies] }),
 * in an order where dependencies come first.
 * @param {object} settings
 * @returns {ReadinessGraph}
 */
function fromSettings(settings) {
  const own = settings.health ?? {};
  const graph = new ReadinessGraph();
  const declared = own.components ?? {};
  const pending = new Map(Object.entries(declared));
  while (pending.size > 0) {
    const next = [...pending].find(([, deps]) => deps.every((dep) => graph.nodes.has(dep)));
    if (!next) throw new Error(`unresolvable dependencies among: ${[...pending.keys()].join(', ')}`);
    graph.add(next[0], next[1]);
    pending.delete(next[0]);
  }
  return graph;
}

module.exports = { ReadinessGraph, fromSettings };
