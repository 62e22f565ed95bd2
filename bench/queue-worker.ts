import { createToolWorker } from "../src/bullmq/index.js";
import { queueBenchRegistry } from "./queue-tools.js";

// One worker process of `npm run bench:queue`, forked by bench/queue-main.ts; Redis and the queue from the environment.
const worker = createToolWorker(queueBenchRegistry((handlerMs) => (handlerMs === 0 ? "done" : new Promise((resolve) => setTimeout(() => resolve("done"), handlerMs)))), {
  connection: process.env.REDIS_URL!,
  queueName: process.env.QUEUE_NAME!,
  concurrency: Number(process.env.CONCURRENCY),
});
await worker.worker.waitUntilReady();
process.send?.("ready");
process.on("message", (message) => {
  if (message === "close") void worker.close().then(() => process.exit(0));
});
