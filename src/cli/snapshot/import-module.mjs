// Dynamic import for the start-up snapshot's code, which cannot call import() itself (no module loader is
// attached to a script compiled into a snapshot): this file is loaded at run time with require(esm), and an ES
// module loaded that way has a loader behind its import().
export const importModule = (url) => import(url);
