import { MemoryEventStore } from './memory';
import { runEventStoreContract } from './testing/contract';

runEventStoreContract('memory', async (options) => {
  const store = new MemoryEventStore(options);
  return {
    store,
    cleanup: () => store.close(),
    tamper: async (stream, revision, patch) =>
      store.tamperForTests(stream, revision, {
        ...(patch.data !== undefined && { dataJson: patch.data }),
        ...(patch.metadata !== undefined && { metadataJson: patch.metadata }),
        ...(patch.type !== undefined && { type: patch.type }),
        ...(patch.prevHash !== undefined && { prevHash: patch.prevHash }),
        ...(patch.hash !== undefined && { hash: patch.hash }),
      }),
  };
});
