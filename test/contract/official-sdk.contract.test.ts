// The simulator's contract through the official SDK (longport@3.0.18): the bar is that it works unmodified.
import { officialSdkDriver } from './drivers/official-sdk-driver.js';
import { simulatorContract } from './simulator-contract.js';

simulatorContract('the official SDK', officialSdkDriver);
