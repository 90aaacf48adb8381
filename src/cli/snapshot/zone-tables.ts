// Prints the market zones' rules over 1900–2100 as tables (JSON), read from this node's Intl. The snapshot
// builder runs it with the node the snapshot is for: a snapshot cannot hold Intl's formatters, and a process
// started from it would otherwise make them on every backtest.
import { MARKET_TIME_ZONES } from '../../domain/market-hours.js';
import { ZoneRules } from '../../domain/time-zone.js';

const zones = [...new Set(Object.values(MARKET_TIME_ZONES))];
process.stdout.write(JSON.stringify(zones.map((zone) => ZoneRules.of(zone).table(1900, 2100))));
