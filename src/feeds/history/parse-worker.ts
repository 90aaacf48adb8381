// A helper thread for loading many candle files (CSV or Parquet): it takes the next file not yet taken (a
// counter shared with the loading thread), reads it into columns and sends them over (their memory moves,
// nothing is copied). A file it cannot read is sent back as failed, for the loading thread to read again
// and report.
import { parentPort, workerData } from 'node:worker_threads';
import { readCandleFile } from './candle-files.js';
import type { ParseJobs, ParsedFile } from './parallel-load.js';

const { files, counter } = workerData as ParseJobs;
const next = new Int32Array(counter);
for (let index = Atomics.add(next, 0, 1); index < files.length; index = Atomics.add(next, 0, 1)) {
  const file = files[index]!;
  let message: ParsedFile;
  try {
    const { columns, problems, skippedRows } = await readCandleFile(file.path, file.options);
    const { symbol: _symbol, source: _source, ...fields } = columns;
    message = { index, fields, problems, skippedRows };
  } catch {
    message = { index, fields: undefined, problems: [], skippedRows: 0 };
  }
  const { fields } = message;
  const moved =
    fields === undefined ? [] : [fields.time, fields.open, fields.high, fields.low, fields.close, fields.volume, fields.turnover];
  parentPort!.postMessage(
    message,
    moved.flatMap((column) => (column === undefined ? [] : [column.buffer as ArrayBuffer])),
  );
}
parentPort!.postMessage('done');
