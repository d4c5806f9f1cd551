import { asTenant, createWriteBatcher, currentTenant } from '../../src';

/** A write the test lets finish when it wants: the batches it was given, and a way to end each. */
function controlledWrite() {
  const batches: string[][] = [];
  const finishers: Array<() => void> = [];
  const tenants: Array<string | undefined> = [];
  const write = (items: readonly string[]) => {
    batches.push([...items]);
    tenants.push(currentTenant());
    return new Promise<string[]>((resolve) => finishers.push(() => resolve(items.map((item) => `${item}!`))));
  };
  return { write, batches, finishers, tenants };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('write batcher', () => {
  test('when writes arrive while the batches in flight run, then they wait and go together in the next batch', async () => {
    const target = controlledWrite();
    const batcher = createWriteBatcher({ write: target.write, maxBatchSize: 10, maxConcurrentBatches: 1 });

    const first = batcher.write('a');
    await turn();
    expect(target.batches).toEqual([['a']]);

    const waiting = ['b', 'c', 'd'].map((item) => batcher.write(item));
    await turn();
    expect(target.batches).toHaveLength(1);

    target.finishers[0]!();
    expect(await first).toBe('a!');
    await turn();
    expect(target.batches).toEqual([['a'], ['b', 'c', 'd']]);
    target.finishers[1]!();
    expect(await Promise.all(waiting)).toEqual(['b!', 'c!', 'd!']);
  });

  test('when more batches are formed than may run, then at most the allowed number run at once, none larger than the maximum', async () => {
    const target = controlledWrite();
    const batcher = createWriteBatcher({ write: target.write, maxBatchSize: 2, maxConcurrentBatches: 2 });

    const all = ['a', 'b', 'c', 'd', 'e'].map((item) => batcher.write(item));
    await turn();
    expect(target.batches).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    target.finishers[0]!();
    await turn();
    await turn();
    expect(target.batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    target.finishers[1]!();
    target.finishers[2]!();
    expect(await Promise.all(all)).toEqual(['a!', 'b!', 'c!', 'd!', 'e!']);
  });

  test('when one item of a batch fails, then only its caller gets the error; when the batch fails, every caller does and the next batch still runs', async () => {
    let failWholeBatch = false;
    const batcher = createWriteBatcher<string, string>({
      write: async (items) => {
        if (failWholeBatch) throw new Error('database unavailable');
        return items.map((item) => (item === 'bad' ? new Error(`${item} refused`) : item));
      },
      maxBatchSize: 10,
      maxConcurrentBatches: 1,
    });

    const answers = await Promise.allSettled(['ok', 'bad', 'fine'].map((item) => batcher.write(item)));
    expect(answers.map((answer) => answer.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((answers[1] as PromiseRejectedResult).reason.message).toBe('bad refused');

    failWholeBatch = true;
    const failed = await Promise.allSettled(['x', 'y'].map((item) => batcher.write(item)));
    expect(failed.map((answer) => answer.status)).toEqual(['rejected', 'rejected']);

    failWholeBatch = false;
    expect(await batcher.write('again')).toBe('again');
  });

  test("when the write that opens a batch runs in a tenant's scope, then the batch does not: it carries other callers' writes too", async () => {
    const target = controlledWrite();
    const batcher = createWriteBatcher({ write: target.write, maxBatchSize: 10, maxConcurrentBatches: 1 });

    const written = asTenant('0b9a3c52-58a5-4c39-9d43-5f0d3cf3d7a1', () => batcher.write('a'));
    const other = batcher.write('b');
    await turn();
    expect(target.batches).toEqual([['a', 'b']]);
    expect(target.tenants).toEqual([undefined]);
    target.finishers[0]!();
    expect(await Promise.all([written, other])).toEqual(['a!', 'b!']);
  });
});
