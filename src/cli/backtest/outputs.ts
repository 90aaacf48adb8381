// What a finished backtest leaves behind: the summary on the terminal, the JSON result, the HTML report.
import type { BacktestRun } from '../../backtest/engine.js';
import { resultDocument, resultJsonChunks, type ResultDocument } from '../../backtest/report/result-builder.js';
import { writeChunks, writeChunksToFile, writeTextFile } from '../../files/chunked-write.js';
import type { MetricsOptions } from '../../backtest/result.js';
import { colorEnabled, formatSummary } from '../../backtest/summary.js';

export interface OutputTargets {
  /** "-" for stdout, else a file; undefined for none. */
  readonly json: string | undefined;
  readonly report: string | undefined;
  readonly quiet: boolean;
  readonly metrics: MetricsOptions;
}

export async function writeOutputs(run: BacktestRun, targets: OutputTargets): Promise<ResultDocument> {
  const document = resultDocument(run.record, targets.metrics);
  const jsonToStdout = targets.json === '-';
  const summary = !targets.quiet && !jsonToStdout;
  // The summary and the report read the trades' rows; the fills' rows are made as the JSON is written.
  const result = summary || targets.report !== undefined ? { ...document, trades: document.trades.toArray() } : undefined;
  if (summary) process.stdout.write(formatSummary(result!, { color: colorEnabled(process.stdout) }));
  if (targets.json !== undefined) {
    const chunks = resultJsonChunks(result ?? document);
    if (jsonToStdout) await writeChunks(process.stdout, chunks);
    else {
      writeChunksToFile(targets.json, chunks);
      process.stderr.write(`wrote ${targets.json}\n`);
    }
  }
  if (targets.report !== undefined) {
    // The page's modules (charts, thinning, inlined assets) load only for a report.
    const { renderReport } = await import('../../backtest/report/html.js');
    writeTextFile(targets.report, await renderReport(run.record, result!));
    process.stderr.write(`wrote ${targets.report}\n`);
  }
  return document;
}
