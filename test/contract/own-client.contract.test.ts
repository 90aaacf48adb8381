// The simulator's contract through our own HTTP and socket clients.
import { ownClientDriver } from './drivers/own-client-driver.js';
import { simulatorContract } from './simulator-contract.js';

simulatorContract('our own clients', ownClientDriver);
