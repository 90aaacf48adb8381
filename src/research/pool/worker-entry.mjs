// Worker thread entry of the local pool: TypeScript sources run through tsx here as in the main thread.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./worker.ts');
export default worker.default;
