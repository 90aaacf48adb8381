// items.map(make), for lists made once per run and read by code that runs thousands of runs in one process
// (research trials); why not map: bench/README.md, "Lists made per run".

export function listOf<Item, Made>(items: readonly Item[], make: (item: Item, index: number) => Made): Made[] {
  const made: Made[] = [];
  for (let index = 0; index < items.length; index += 1) made.push(make(items[index]!, index));
  return made;
}
