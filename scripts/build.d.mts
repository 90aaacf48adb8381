// Types of scripts/build.mjs for the TypeScript that imports it (the e2e global setup, the package test).
export interface BuildOptions {
  /** Emit the .d.ts declarations too (default true). */
  readonly types?: boolean;
  /** Build even when nothing changed (default false). */
  readonly force?: boolean;
  readonly log?: (line: string) => void;
}

export function build(options?: BuildOptions): Promise<{ js: boolean; types: boolean }>;
