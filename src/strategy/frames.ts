// Places in source files, as stack frames name them, and where a frame of code that does not run from its own
// file really is: the start-up snapshot runs the runtime's modules from one bundle (src/cli/snapshot/), whose
// frames it maps back to dist/'s files, so failure.ts tells them from the user's as on the plain start.

export interface SourceLocation {
  /** The file as the strategy's source names it when it is that file; else relative to the working folder when inside it. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** Undefined for a frame to leave as it is. */
export type FrameMapper = (location: SourceLocation) => SourceLocation | undefined;

let mapper: FrameMapper | undefined;

export function useFrameMapper(map: FrameMapper | undefined): void {
  mapper = map;
}

export function mappedFrame(location: SourceLocation): SourceLocation {
  return mapper?.(location) ?? location;
}
