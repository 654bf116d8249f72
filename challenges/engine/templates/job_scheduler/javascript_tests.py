"""JavaScript (node:test) visible and hidden tests of the job-scheduler template.

Races are deterministic: claimers meet at a promise barrier in the tracing
hook, so each has passed the early check before any of them takes the mutex.
"""

HEAD = """'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');

{{imports}}
"""

RACE = """
/** Holds each claimer in the tracing hook until `parties` claimers have arrived. */
class ClaimRace {
  constructor(parties = 2) {
    this._parties = parties;
    this._waiting = [];
    this.winners = [];
  }

  claimAttempt() {
    return new Promise((resolve) => {
      this._waiting.push(resolve);
      if (this._waiting.length === this._parties) {
        this._waiting.splice(0).forEach((release) => release());
      }
    });
  }

  claimed(key, worker) {
    this.winners.push([key, worker]);
  }
}

async function claimConcurrently(scheduler, key, workers) {
  const jobs = await Promise.all(workers.map((worker) => scheduler.claim(key, worker)));
  return Object.fromEntries(workers.map((worker, i) => [worker, jobs[i]]));
}

const settle = (promise, ms) => Promise.race([
  promise.then(() => 'done'),
  new Promise((resolve) => {
    setTimeout(() => resolve('stuck'), ms).unref();
  }),
]);
"""

TEST_QUEUE = HEAD + """
const job = (key, priority = 5) => makeJob(key, '{{kind_a}}', priority);

describe('ready queue', () => {
  test('pop returns the pushed key', () => {
    const queue = {{new_queue_t}};
    {{t_push}}job('{{key_a}}'));
    assert.equal({{t_len}}, 1);
    assert.equal({{t_pop}}, '{{key_a}}');
    assert.equal({{t_pop}}, null);
  });

  test('equal priorities keep push order', () => {
    const queue = {{new_queue_t}};
    for (const key of ['{{key_c}}', '{{key_a}}', '{{key_b}}']) {
      {{t_push}}job(key));
    }
    assert.deepEqual({{t_peek}}10), ['{{key_c}}', '{{key_a}}', '{{key_b}}']);
  });

  test('discarded keys are skipped', () => {
    const queue = {{new_queue_t}};
    {{t_push}}job('{{key_a}}'));
    {{t_push}}job('{{key_b}}'));
    {{t_discard}}'{{key_a}}');
    assert.equal({{t_has_a}}, false);
    assert.equal({{t_pop}}, '{{key_b}}');
  });

  test('peek respects the limit', () => {
    const queue = {{new_queue_t}};
    for (const key of ['{{key_a}}', '{{key_b}}', '{{key_c}}']) {
      {{t_push}}job(key));
    }
    assert.equal({{t_peek}}2).length, 2);
  });
});
"""

TEST_SCHEDULER = HEAD + RACE + """
describe('{{SchedulerCls}}', () => {
  const setup = () => buildScheduler(makeSettings());

  test('a job without dependencies is ready', async () => {
    const scheduler = setup();
    const job = await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    assert.equal(job.state, READY);
    assert.deepEqual(scheduler.readyJobs(), ['{{key_a}}']);
  });

  test('a dependent waits until its dependency is done', async () => {
    const scheduler = setup();
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    await scheduler.submit('{{key_b}}', '{{kind_b}}', 3, {}, ['{{key_a}}']);
    assert.equal(scheduler.job('{{key_b}}').state, PENDING);
    await scheduler.claim('{{key_a}}', 'w1');
    assert.deepEqual(await scheduler.complete('{{key_a}}', 'w1'), ['{{key_b}}']);
    assert.equal(scheduler.job('{{key_b}}').state, READY);
  });

  test('a second claim gets nothing', async () => {
    const scheduler = setup();
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    assert.notEqual(await scheduler.claim('{{key_a}}', 'w1'), null);
    assert.equal(await scheduler.claim('{{key_a}}', 'w2'), null);
  });

  test('a failure cancels dependents', async () => {
    const scheduler = setup();
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    await scheduler.submit('{{key_b}}', '{{kind_b}}', 3, {}, ['{{key_a}}']);
    await scheduler.claim('{{key_a}}', 'w1');
    assert.deepEqual(await scheduler.fail('{{key_a}}', 'w1', 'boom'), ['{{key_b}}']);
    assert.equal(scheduler.job('{{key_b}}').state, CANCELLED);
  });

  test('a duplicate key conflicts', async () => {
    const scheduler = setup();
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    await assert.rejects(scheduler.submit('{{key_a}}', '{{kind_a}}', 3), JobConflict);
  });

  test('a priority out of range is invalid', async () => {
    await assert.rejects(setup().submit('{{key_a}}', '{{kind_a}}', makeSettings().maxPriority + 1), {{ErrInvalid}});
  });

  test('an unknown dependency is invalid', async () => {
    await assert.rejects(setup().submit('{{key_b}}', '{{kind_b}}', 3, {}, ['{{key_z}}']), {{ErrInvalid}});
  });
});
"""

HERRING_TEST = """
describe('dependency chains', () => {
  test('dependency chain finishes in order', async () => {
    const scheduler = buildScheduler(makeSettings());
    await scheduler.submit('{{key_c}}', '{{kind_a}}', 4);
    await scheduler.submit('{{key_b}}', '{{kind_a}}', 4);
    assert.equal((await scheduler.nextFor('w1')).key, '{{key_c}}');
    await scheduler.submit('{{key_a}}', '{{kind_b}}', 4, {}, ['{{key_c}}']);
    await scheduler.complete('{{key_c}}', 'w1');
    assert.deepEqual(scheduler.readyJobs(), ['{{key_b}}', '{{key_a}}']);
    const race = new ClaimRace();
    const racing = buildScheduler(makeSettings(), race);
    await racing.submit('{{key_a}}', '{{kind_a}}', 4);
    await claimConcurrently(racing, '{{key_a}}', ['w1', 'w2']);
    assert.equal(race.winners.length, 1);
  });
});
"""

TEST_WORKERS = HEAD + """
describe('workers', () => {
  test('drain runs a chain in dependency order', async () => {
    const scheduler = buildScheduler(makeSettings());
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 1);
    await scheduler.submit('{{key_b}}', '{{kind_b}}', 9, {}, ['{{key_a}}']);
    await scheduler.submit('{{key_c}}', '{{kind_a}}', 5, {}, ['{{key_b}}']);
    const seen = [];
    const handlers = { {{kind_a_js}}: async (job) => seen.push(job.key), {{kind_b_js}}: async (job) => seen.push(job.key) };
    const ran = await drain([new Worker('w1', scheduler, handlers), new Worker('w2', scheduler, handlers)]);
    assert.deepEqual(ran, ['{{key_a}}', '{{key_b}}', '{{key_c}}']);
    assert.deepEqual(seen, ran);
    assert.deepEqual(scheduler.counts(), { done: 3 });
  });

  test('a handler error fails the job', async () => {
    const scheduler = buildScheduler(makeSettings());
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 1);
    await new Worker('w1', scheduler, {
      {{kind_a_js}}: async () => {
        throw new Error('bad payload');
      },
    }).runOnce();
    const failed = scheduler.job('{{key_a}}');
    assert.deepEqual([failed.state, failed.error], ['failed', 'bad payload']);
  });

  test('an idle worker returns null', async () => {
    assert.equal(await new Worker('w1', buildScheduler(makeSettings()), {}).runOnce(), null);
  });
});
"""

TEST_API = HEAD + """
describe('api', () => {
  const setup = () => buildScheduler(makeSettings());

  test('submit returns created', async () => {
    const response = await handleSubmit(setup(), { key: '{{key_a}}', kind: '{{kind_a}}', priority: 2 });
    assert.equal(response.status, 201);
    assert.equal(response.body.state, 'ready');
  });

  test('submit requires a kind', async () => {
    const response = await handleSubmit(setup(), { key: '{{key_a}}' });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.details.field, 'kind');
  });

  test('get of an unknown job', async () => {
    assert.equal((await handleGet(setup(), '{{key_z}}')).status, 404);
  });

  test('a remote worker claims and finishes', async () => {
    const scheduler = setup();
    await handleSubmit(scheduler, { key: '{{key_a}}', kind: '{{kind_a}}' });
    await handleSubmit(scheduler, { key: '{{key_b}}', kind: '{{kind_b}}', dependsOn: ['{{key_a}}'] });
    const claimed = await handleClaim(scheduler, '{{key_a}}', { worker: 'remote-1' });
    assert.deepEqual([claimed.status, claimed.body.worker], [200, 'remote-1']);
    assert.equal((await handleClaim(scheduler, '{{key_a}}', { worker: 'remote-2' })).status, 409);
    const finished = await handleFinish(scheduler, '{{key_a}}', { worker: 'remote-1', ok: true });
    assert.deepEqual([finished.status, finished.body.released], [200, ['{{key_b}}']]);
  });

  test('cancel withdraws downstream jobs', async () => {
    const scheduler = setup();
    await handleSubmit(scheduler, { key: '{{key_a}}', kind: '{{kind_a}}' });
    await handleSubmit(scheduler, { key: '{{key_b}}', kind: '{{kind_b}}', dependsOn: ['{{key_a}}'] });
    const response = await handleCancel(scheduler, '{{key_a}}');
    assert.deepEqual([response.status, response.body.cancelled], [200, ['{{key_a}}', '{{key_b}}']]);
    assert.equal((await handleCancel(scheduler, '{{key_a}}')).status, 409);
  });

  test('ready lists counts', async () => {
    const scheduler = setup();
    await handleSubmit(scheduler, { key: '{{key_a}}', kind: '{{kind_a}}' });
    const response = await handleReady(scheduler, { limit: '5' });
    assert.deepEqual(response.body.ready, ['{{key_a}}']);
    assert.deepEqual(response.body.counts, { ready: 1 });
  });
});
"""

HIDDEN_SCHEDULING = HEAD + RACE + """
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

describe('ordering', () => {
  const setup = () => buildScheduler(makeSettings());

  test('higher priority runs first', async () => {
    const scheduler = setup();
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 1);
    await scheduler.submit('{{key_b}}', '{{kind_a}}', 9);
    await scheduler.submit('{{key_c}}', '{{kind_a}}', 5);
    assert.deepEqual(scheduler.readyJobs(), ['{{key_b}}', '{{key_c}}', '{{key_a}}']);
    const order = [];
    for (let i = 0; i < 3; i += 1) {
      order.push((await scheduler.nextFor('w1')).key);
    }
    assert.deepEqual(order, ['{{key_b}}', '{{key_c}}', '{{key_a}}']);
    assert.equal(await scheduler.nextFor('w1'), null);
  });

  test('equal priority runs in the order jobs became ready', async () => {
    const scheduler = setup();
    await scheduler.submit('{{key_c}}', '{{kind_a}}', 4);
    await scheduler.submit('{{key_b}}', '{{kind_a}}', 4);
    assert.equal((await scheduler.nextFor('w1')).key, '{{key_c}}');
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 4);
    assert.deepEqual(scheduler.readyJobs(), ['{{key_b}}', '{{key_a}}']);
    assert.equal((await scheduler.nextFor('w2')).key, '{{key_b}}');
    await scheduler.submit('{{key_z}}', '{{kind_a}}', 4);
    assert.equal((await scheduler.nextFor('w3')).key, '{{key_a}}');
    assert.equal((await scheduler.nextFor('w3')).key, '{{key_z}}');
  });

  test('released dependents queue behind ready peers', async () => {
    const scheduler = setup();
    await scheduler.submit('{{key_z}}', '{{kind_a}}', 6);
    await scheduler.submit('{{key_a}}', '{{kind_b}}', 6, {}, ['{{key_z}}']);
    await scheduler.submit('{{key_c}}', '{{kind_a}}', 6);
    assert.equal((await scheduler.nextFor('w1')).key, '{{key_z}}');
    await scheduler.submit('{{key_b}}', '{{kind_a}}', 6);
    assert.deepEqual(await scheduler.complete('{{key_z}}', 'w1'), ['{{key_a}}']);
    assert.deepEqual(scheduler.readyJobs(), ['{{key_c}}', '{{key_b}}', '{{key_a}}']);
  });

  test('workers drain by priority then readiness', async () => {
    const scheduler = setup();
    const keys = ['{{key_a}}', '{{key_b}}', '{{key_c}}', '{{key_z}}'];
    for (const [index, key] of keys.entries()) {
      await scheduler.submit(key, '{{kind_a}}', index % 2 ? 2 : 7);
    }
    const ran = await drain([new Worker('w1', scheduler, { {{kind_a_js}}: async () => {} })]);
    assert.deepEqual(ran, ['{{key_a}}', '{{key_c}}', '{{key_b}}', '{{key_z}}']);
  });

  test('popped keys leave the queue', () => {
    const queue = {{new_queue_t}};
    {{t_push}}makeJob('{{key_a}}', '{{kind_a}}', 2));
    {{t_push}}makeJob('{{key_b}}', '{{kind_a}}', 2));
    assert.equal({{t_pop}}, '{{key_a}}');
    assert.equal({{t_has_a}}, false);
    assert.deepEqual([{{t_len}}, {{t_peek}}5)], [1, ['{{key_b}}']]);
    assert.equal({{t_pop}}, '{{key_b}}');
    assert.equal({{t_pop}}, null);
    assert.equal({{t_len}}, 0);
  });
});

describe('claims', () => {
  test('concurrent claims have exactly one winner', async () => {
    const race = new ClaimRace();
    const scheduler = buildScheduler(makeSettings(), race);
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    const results = await claimConcurrently(scheduler, '{{key_a}}', ['w1', 'w2']);
    const winners = Object.entries(results).filter(([, job]) => job !== null).map(([worker]) => worker);
    assert.equal(winners.length, 1);
    const job = scheduler.job('{{key_a}}');
    assert.deepEqual([job.state, job.worker, job.attempts], [RUNNING, winners[0], 1]);
    assert.deepEqual(race.winners, [['{{key_a}}', winners[0]]]);
  });

  test('every contended job runs once', async () => {
    const race = new ClaimRace(3);
    const scheduler = buildScheduler(makeSettings(), race);
    const keys = ['{{key_a}}', '{{key_b}}', '{{key_c}}'];
    for (const key of keys) {
      await scheduler.submit(key, '{{kind_a}}', 3);
    }
    for (const key of keys) {
      const results = await claimConcurrently(scheduler, key, ['w1', 'w2', 'w3']);
      assert.equal(Object.values(results).filter((job) => job !== null).length, 1, key);
    }
    assert.deepEqual(keys.map((key) => scheduler.job(key).attempts), [1, 1, 1]);
  });

  test('a claimed job leaves the ready list', async () => {
    const scheduler = buildScheduler(makeSettings());
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    await scheduler.submit('{{key_b}}', '{{kind_a}}', 2);
    const claimed = await scheduler.claim('{{key_a}}', 'w1');
    assert.deepEqual([claimed.state, claimed.worker], [RUNNING, 'w1']);
    assert.deepEqual(scheduler.readyJobs(), ['{{key_b}}']);
    assert.equal((await scheduler.nextFor('w2')).key, '{{key_b}}');
    assert.equal(await scheduler.nextFor('w2'), null);
  });

  test('a finished job cannot be claimed', async () => {
    const scheduler = buildScheduler(makeSettings());
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    await scheduler.claim('{{key_a}}', 'w1');
    await scheduler.complete('{{key_a}}', 'w1');
    assert.equal(await scheduler.claim('{{key_a}}', 'w2'), null);
    assert.equal(scheduler.job('{{key_a}}').worker, 'w1');
  });
});

describe('completion', () => {
  const setup = () => {
    const scheduler = buildScheduler(makeSettings());
    const events = [];
    scheduler.subscribe(async (event, job) => {
      events.push([event, job.key]);
    });
    return { scheduler, events };
  };

  test('a repeated completion report is ignored', async () => {
    const { scheduler, events } = setup();
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    await scheduler.submit('{{key_b}}', '{{kind_a}}', 3, {}, ['{{key_a}}']);
    await scheduler.claim('{{key_a}}', 'w1');
    assert.deepEqual(await scheduler.complete('{{key_a}}', 'w1'), ['{{key_b}}']);
    assert.deepEqual(await scheduler.complete('{{key_a}}', 'w1'), []);
    assert.deepEqual(events, [['completed', '{{key_a}}']]);
  });

  test('completion by another worker is refused', async () => {
    const { scheduler } = setup();
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    await scheduler.claim('{{key_a}}', 'w1');
    await assert.rejects(scheduler.complete('{{key_a}}', 'w2'), JobConflict);
    assert.equal(scheduler.job('{{key_a}}').state, RUNNING);
  });

  test('a listener may submit follow-up work', async () => {
    const { scheduler } = setup();
    scheduler.subscribe(async (event, job) => {
      if (event === 'completed' && job.key === '{{key_a}}') {
        await scheduler.submit('{{key_c}}', '{{kind_b}}', 1, {}, ['{{key_a}}']);
      }
    });
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    await scheduler.claim('{{key_a}}', 'w1');
    assert.equal(await settle(scheduler.complete('{{key_a}}', 'w1'), 1000), 'done', 'complete() did not return');
    assert.equal(scheduler.job('{{key_c}}').state, READY);
  });

  test('a failure cancels everything downstream', async () => {
    const { scheduler, events } = setup();
    await scheduler.submit('{{key_a}}', '{{kind_a}}', 3);
    await scheduler.submit('{{key_b}}', '{{kind_a}}', 3, {}, ['{{key_a}}']);
    await scheduler.submit('{{key_c}}', '{{kind_a}}', 3, {}, ['{{key_b}}']);
    await scheduler.submit('{{key_z}}', '{{kind_a}}', 3);
    await scheduler.claim('{{key_a}}', 'w1');
    assert.deepEqual(await scheduler.fail('{{key_a}}', 'w1', 'disk full'), ['{{key_b}}', '{{key_c}}']);
    assert.deepEqual(scheduler.readyJobs(), ['{{key_z}}']);
    assert.deepEqual(events, [['failed', '{{key_a}}']]);
    await assert.rejects(scheduler.submit('{{key_y}}', '{{kind_a}}', 3, {}, ['{{key_c}}']), JobConflict);
  });

  test('api and settings', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-'));
    try {
      const file = path.join(dir, 'settings.json');
      fs.writeFileSync(file, JSON.stringify({ default_priority: 2, prefetch: 1 }));
      const scheduler = buildScheduler(loadSettings(file));
      await handleSubmit(scheduler, { key: '{{key_a}}', kind: '{{kind_a}}' });
      await handleSubmit(scheduler, { key: '{{key_b}}', kind: '{{kind_a}}', priority: 3 });
      const response = await handleReady(scheduler, {});
      assert.deepEqual([response.status, response.body.ready], [200, ['{{key_b}}']]);
      assert.equal((await handleGet(scheduler, '{{key_a}}')).body.priority, 2);
      fs.writeFileSync(file, JSON.stringify({ prefetch_size: 1 }));
      assert.throws(() => loadSettings(file), {{ErrInvalid}});
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
"""
