// This machine's own 1 → 2 thread scaling, as a yardstick for the research bench's: the same loop on one
// worker thread, then on two at once, in pairs (each in the other order than the one before). Two loops: pure
// arithmetic (no allocation), and one making short-lived objects at about a backtest trial's rate (a
// trial allocates ~1.5 MB in ~2.5 ms), whose collections use the other core when it is free.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

function arithmetic() {
  let value = 0;
  for (let index = 0; index < 30_000_000; index += 1) value = (value * 1_103_515_245 + 12_345 + index) % 2_147_483_647;
  return value;
}

function allocating() {
  // A ring of recent objects keeps a small live set, as a trial's open orders and positions do.
  const ring = new Array(1024);
  let sum = 0;
  for (let index = 0; index < 6_000_000; index += 1) {
    const made = { at: index, value: index * 2, fields: [index] };
    sum += made.value + made.fields[0];
    if ((index & 63) === 0) ring[(index >> 6) & 1023] = made;
  }
  return sum + ring.length;
}

if (!isMainThread) {
  const work = workerData === 'arithmetic' ? arithmetic : allocating;
  for (let warm = 0; warm < 3; warm += 1) work();
  parentPort.on('message', () => {
    work();
    work();
    parentPort.postMessage('done');
  });
}

/** Per kind of loop, the throughput scaling of each pair of runs (2 threads' rate over 1 thread's). */
export async function machineScaling(pairs = 6) {
  const results = {};
  for (const kind of ['arithmetic', 'allocating']) {
    const workers = [0, 1].map(() => new Worker(new URL(import.meta.url), { workerData: kind }));
    const run = async (count) => {
      const started = performance.now();
      await Promise.all(
        workers.slice(0, count).map(
          (worker) =>
            new Promise((resolve) => {
              worker.once('message', resolve);
              worker.postMessage('go');
            }),
        ),
      );
      return performance.now() - started;
    };
    await run(2);
    const scalings = [];
    for (let pair = 0; pair < pairs; pair += 1) {
      const times = {};
      for (const count of pair % 2 === 0 ? [1, 2] : [2, 1]) times[count] = await run(count);
      scalings.push((2 * times[1]) / times[2]);
    }
    await Promise.all(workers.map((worker) => worker.terminate()));
    results[kind] = scalings;
  }
  return results;
}
