import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";

/** A Redis the tests may use: its URL, and how to stop it when the tests started it. */
export interface TestRedis {
  readonly url: string;
  stop(): Promise<void>;
}

/** Why Redis suites skip, in one line; `undefined` when Redis is there. */
export let redisMissing: string | undefined;

/**
 * `REDIS_URL` when set, else a `redis-server` of our own on 127.0.0.1, on a free port (never 6379),
 * with no persistence; `undefined` when none can be started. With `REQUIRE_REDIS=1` (CI), a Redis
 * that cannot be had fails instead.
 */
export async function startRedis(): Promise<TestRedis | undefined> {
  const given = process.env.REDIS_URL;
  if (given !== undefined && given !== "") return { url: given, stop: () => Promise.resolve() };
  if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status !== 0) return missing("redis-server is not installed (apt-get install redis-server) and REDIS_URL is not set");
  const port = await freePort();
  const server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  const ready = await new Promise<boolean>((resolve) => {
    let output = "";
    const timer = setTimeout(() => resolve(false), 10_000);
    server.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    server.on("exit", () => resolve(false));
  });
  if (!ready) {
    server.kill("SIGKILL");
    return missing(`redis-server did not start on port ${port}`);
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopped(server) };
}

function missing(reason: string): undefined {
  if (process.env.REQUIRE_REDIS === "1") throw new Error(`REQUIRE_REDIS=1, and no Redis: ${reason}`);
  redisMissing = reason;
  return undefined;
}

/** A TCP port nothing listens on now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => (port === 6379 ? freePort().then(resolve, reject) : resolve(port)));
    });
  });
}

function stopped(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.once("exit", () => resolve());
    server.kill("SIGTERM");
  });
}

/** A name no other test run uses, for queues and key prefixes on a shared Redis. */
export function uniqueName(stem: string): string {
  return `${stem}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A TCP proxy in front of a Redis, for tests that break the way to it: its URL, and two ways to break it. */
export interface RedisProxy {
  readonly url: string;
  /** Cuts every connection through it now; new ones are still taken (a short break). */
  cut(): void;
  /** Cuts every connection and takes no new one (Redis gone for good). */
  stop(): Promise<void>;
  /** Keeps every connection open, and takes new ones, but passes nothing on: a Redis that hangs. */
  freeze(): void;
}

/** A proxy on 127.0.0.1, on a free port, to the Redis at `url`. */
export async function redisProxy(url: string): Promise<RedisProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let frozen = false;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (chunk: Buffer) => void (frozen || upstream.write(chunk)));
    upstream.on("data", (chunk: Buffer) => void (frozen || client.write(chunk)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const cut = (): void => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    cut,
    freeze: () => {
      frozen = true;
    },
    stop: () => {
      server.close();
      cut();
      return Promise.resolve();
    },
  };
}

/** A TCP server that takes connections and never answers: a Redis that hangs. Its URL, and how to stop it. */
export async function silentServer(): Promise<{ readonly url: string; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
