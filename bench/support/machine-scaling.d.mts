/** Per kind of loop, the throughput scaling of each pair of runs (2 threads' rate over 1 thread's). */
export function machineScaling(pairs?: number): Promise<{ readonly arithmetic: number[]; readonly allocating: number[] }>;
