import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ToolArgumentsValidationError,
  ToolHookError,
  ToolNotAllowedError,
  ToolRateLimitedError,
  ToolRegistry,
  ToolUnavailableError,
  Type,
  UnknownToolError,
  failureContent,
} from "../src/index.js";
import { retryDelay } from "../src/policy/retry.js";
import { SlidingWindowLimiter } from "../src/policy/rate-limit.js";
import { rejectionOf, thrownBy, toolCall } from "./support/fixtures.js";

const parameters = Type.Object({ n: Type.Integer() });
const tool = (name: string) => ({ name, description: name, parameters });

afterEach(() => {
  vi.useRealTimers();
});

describe("the allow option", () => {
  function registry() {
    const ran: string[] = [];
    const tools = new ToolRegistry();
    for (const name of ["read", "write", "delete_all"]) tools.register(tool(name), () => ran.push(name));
    return { tools, ran };
  }

  it("refuses a registered tool outside it, listing what is available, and never runs it", async () => {
    const { tools, ran } = registry();
    const error = await rejectionOf(tools.dispatch(toolCall("delete_all", { n: 1 }), { allow: ["read", "write"] }));
    expect(error).toBeInstanceOf(ToolNotAllowedError);
    expect(error).toMatchObject({ toolName: "delete_all", available: ["read", "write"] });
    expect((error as Error).message).toBe('Tool "delete_all" is not available in this turn. Available tools: "read", "write".');
    expect(ran).toEqual([]);
  });

  it.each(["Delete_All", "DELETE_ALL", " delete_all", "delete_all ", "delete_all\u0000", "delete\u200ball", "delete_аll", "delete-all"])(
    "never runs a tool outside it whatever the spelling (%j), and never suggests it",
    async (name) => {
      const { tools, ran } = registry();
      const [result] = await tools.dispatchAll([toolCall(name, { n: 1 })], { allow: ["read"] });
      expect(result?.status).toBe("error");
      if (result?.status !== "error") return;
      expect(result.error).toBeInstanceOf(UnknownToolError);
      expect((result.error as UnknownToolError).suggestions).not.toContain("delete_all");
      expect((result.error as UnknownToolError).available).toEqual(["read"]);
      expect(result.content).not.toContain('"delete_all"');
      expect(ran).toEqual([]);
    },
  );

  it("takes a predicate; one that throws or answers anything but true refuses", async () => {
    const { tools, ran } = registry();
    const results = await tools.dispatchAll([toolCall("read", { n: 1 }, "a"), toolCall("write", { n: 1 }, "b")], { allow: (name) => name === "read" });
    expect(results.map((result) => result.status)).toEqual(["ok", "error"]);
    expect(await rejectionOf(tools.dispatch(toolCall("read", { n: 1 }), { allow: () => { throw new Error("x"); } }))).toBeInstanceOf(ToolNotAllowedError);
    expect(await rejectionOf(tools.dispatch(toolCall("read", { n: 1 }), { allow: (() => "yes") as never }))).toBeInstanceOf(ToolNotAllowedError);
    expect(ran).toEqual(["read"]);
  });

  it("is checked before the arguments: a disallowed call with bad arguments is refused as not allowed", async () => {
    const { tools } = registry();
    expect(await rejectionOf(tools.dispatch(toolCall("write", { n: "x" }), { allow: ["read"] }))).toBeInstanceOf(ToolNotAllowedError);
  });

  it("tells the model in its own names through a name map", async () => {
    const tools = new ToolRegistry().register(tool("files.read"), () => 1).register(tool("files.write"), () => 1);
    const { openAIChat } = await import("../src/providers/index.js");
    const adapter = openAIChat(tools, { names: "map" });
    const call = adapter.call({ id: "c", type: "function", function: { name: "files_write", arguments: "{}" } });
    const [result] = await tools.dispatchAll([call], { allow: ["files.read"] });
    expect(result?.status === "error" && result.content).toBe('Tool "files_write" is not available in this turn. Available tools: "files_read". Call one of the available tools instead.');
  });

  it("refuses a single string (pass an array) and other non-iterables", async () => {
    const { tools } = registry();
    expect(await rejectionOf(tools.dispatch(toolCall("read", { n: 1 }), { allow: "read" as never }))).toBeInstanceOf(TypeError);
    expect(await rejectionOf(tools.dispatchAll([], { allow: 5 as never }))).toBeInstanceOf(TypeError);
  });
});

describe("rateLimit", () => {
  it("refuses the fourth call in a window of three, with a correct retryAfterMs", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    let runs = 0;
    const tools = new ToolRegistry().register(tool("search"), () => ++runs, { rateLimit: { limit: 3, intervalMs: 1_000 } });
    for (let n = 0; n < 3; n++) {
      await tools.dispatch(toolCall("search", { n }));
      vi.advanceTimersByTime(100);
    }
    const error = await rejectionOf(tools.dispatch(toolCall("search", { n: 3 })));
    expect(error).toBeInstanceOf(ToolRateLimitedError);
    // The first call came at 0; it is 300 now: the window frees a place at 1000.
    expect((error as ToolRateLimitedError).retryAfterMs).toBe(700);
    expect((error as Error).message).toContain("Try again in 700 ms");
    expect(runs).toBe(3);
    vi.advanceTimersByTime(700);
    expect(await tools.dispatch(toolCall("search", { n: 4 }))).toBe(4);
  });

  it("is scoped by key(context), for example per user", async () => {
    const tools = new ToolRegistry().register(tool("search"), () => "ok", { rateLimit: { limit: 1, intervalMs: 60_000, key: (context) => String((context.data as { user: string }).user) } });
    expect(await tools.dispatch(toolCall("search", { n: 1 }), { data: { user: "ann" } })).toBe("ok");
    expect(await tools.dispatch(toolCall("search", { n: 1 }), { data: { user: "bob" } })).toBe("ok");
    expect(await rejectionOf(tools.dispatch(toolCall("search", { n: 1 }), { data: { user: "ann" } }))).toBeInstanceOf(ToolRateLimitedError);
  });

  it("does not count refused calls, nor reused results", async () => {
    let runs = 0;
    const tools = new ToolRegistry().register(tool("search"), () => ++runs, { effects: "read-only", cacheTtlMs: 60_000, rateLimit: { limit: 1, intervalMs: 60_000 } });
    expect(await rejectionOf(tools.dispatch(toolCall("search", { n: "bad" })))).toBeInstanceOf(ToolArgumentsValidationError);
    expect(await tools.dispatch(toolCall("search", { n: 1 }))).toBe(1);
    expect(await tools.dispatch(toolCall("search", { n: 1 }))).toBe(1);
    expect(await rejectionOf(tools.dispatch(toolCall("search", { n: 2 })))).toBeInstanceOf(ToolRateLimitedError);
  });

  it("gives back the run of a call that never ran: refused by the circuit breaker, or timed out waiting for its turn", async () => {
    let failing = true;
    let runs = 0;
    const tools = new ToolRegistry().register(
      tool("api"),
      () => {
        runs++;
        if (failing) throw new Error("down");
        return "up";
      },
      { rateLimit: { limit: 2, intervalMs: 60_000 }, circuitBreaker: { failureThreshold: 1, resetAfterMs: 30 } },
    );
    expect(await rejectionOf(tools.dispatch(toolCall("api", { n: 1 })))).toMatchObject({ name: "ToolExecutionError" });
    for (const n of [2, 3, 4]) expect(await rejectionOf(tools.dispatch(toolCall("api", { n })))).toBeInstanceOf(ToolUnavailableError);
    failing = false;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await tools.dispatch(toolCall("api", { n: 5 }))).toBe("up");
    expect(runs).toBe(2);
    const slow = new ToolRegistry().register(tool("slow"), () => new Promise((resolve) => setTimeout(() => resolve("done"), 50)), { rateLimit: { limit: 2, intervalMs: 60_000 }, concurrency: 1, timeoutMs: 20 });
    const [ran, waited] = await slow.dispatchAll([toolCall("slow", { n: 1 }), toolCall("slow", { n: 2 })]);
    expect(ran).toMatchObject({ status: "error", error: { name: "ToolTimeoutError", started: true } });
    expect(waited).toMatchObject({ status: "error", error: { name: "ToolTimeoutError", started: false } });
    await new Promise((resolve) => setTimeout(resolve, 60));
    // The call that never started gave its run back: a third is under the limit of two (it runs, and times out again).
    expect(await rejectionOf(slow.dispatch(toolCall("slow", { n: 3 })))).toMatchObject({ name: "ToolTimeoutError", started: true });
  });

  it("counts a call that waited for its turn when it starts, so that calls that waited through several windows never start together past the limit", async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const starts: number[] = [];
    const tools = new ToolRegistry().register(
      tool("api"),
      async ({ n }) => {
        starts.push(performance.now());
        if (n === 0) await blocked;
        return n;
      },
      { concurrency: 1, rateLimit: { limit: 1, intervalMs: 100 } },
    );
    const first = tools.dispatch(toolCall("api", { n: 0 }));
    // Each arrives in a window of its own, and waits for its turn behind the first.
    await sleep(150);
    const second = tools.dispatch(toolCall("api", { n: 1 }));
    await sleep(150);
    const third = tools.dispatch(toolCall("api", { n: 2 }));
    await sleep(10);
    release();
    expect(await first).toBe(0);
    expect(await second).toBe(1);
    expect(await rejectionOf(third)).toBeInstanceOf(ToolRateLimitedError);
    expect(starts).toHaveLength(2);
    for (const start of starts) expect(starts.filter((time) => time >= start && time < start + 100)).toHaveLength(1);
  });

  it("counts a retry's run when it starts, after its backoff wait, not before: a call in between still finds room", async () => {
    const starts: Array<[number, number]> = [];
    const begun = performance.now();
    let failedOnce = false;
    const tools = new ToolRegistry().register(
      tool("api"),
      ({ n }) => {
        starts.push([n, performance.now() - begun]);
        if (n === 1 && !failedOnce) {
          failedOnce = true;
          throw new Error("flaky");
        }
        return n;
      },
      { effects: "idempotent", retry: { retries: 1, minDelayMs: 300, maxDelayMs: 300 }, rateLimit: { limit: 2, intervalMs: 200 } },
    );
    const retried = tools.dispatch(toolCall("api", { n: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 150));
    // One run so far in the window: the retry has not started, and holds no run yet.
    expect(await tools.dispatch(toolCall("api", { n: 2 }))).toBe(2);
    expect(await retried).toBe(1);
    expect(starts.map(([n]) => n)).toEqual([1, 2, 1]);
    for (const [, start] of starts) expect(starts.filter(([, time]) => time >= start && time < start + 200).length).toBeLessThanOrEqual(2);
  });

  it("counts each retry as a run: past the limit, the call ends with its last failure", async () => {
    let runs = 0;
    const tools = new ToolRegistry().register(
      tool("flaky"),
      () => {
        runs++;
        throw new Error("flaky");
      },
      { effects: "idempotent", retry: { retries: 4, minDelayMs: 1, maxDelayMs: 1 }, rateLimit: { limit: 2, intervalMs: 60_000 } },
    );
    expect(await rejectionOf(tools.dispatch(toolCall("flaky", { n: 1 })))).toMatchObject({ name: "ToolExecutionError" });
    expect(runs).toBe(2);
  });

  it("refuses a call whose key function throws, as a hook error", async () => {
    const tools = new ToolRegistry().register(tool("search"), () => "ok", { rateLimit: { limit: 1, intervalMs: 1_000, key: () => { throw new Error("no user"); } } });
    expect(await rejectionOf(tools.dispatch(toolCall("search", { n: 1 })))).toBeInstanceOf(ToolHookError);
  });

  it("never lets more than the limit through in any window (sliding, not fixed)", () => {
    const limiter = new SlidingWindowLimiter(3, 1_000);
    const accepted: number[] = [];
    for (let now = 0; now < 5_000; now += 37) if (limiter.take("", now) === 0) accepted.push(now);
    for (const start of accepted) expect(accepted.filter((time) => time >= start && time < start + 1_000).length).toBeLessThanOrEqual(3);
    expect(accepted.length).toBeGreaterThanOrEqual(15);
  });

  it("refuses bad options at register", () => {
    expect(thrownBy(() => new ToolRegistry().register(tool("a"), () => 1, { rateLimit: { limit: 0, intervalMs: 1 } }))).toBeInstanceOf(TypeError);
    expect(thrownBy(() => new ToolRegistry().register(tool("a"), () => 1, { rateLimit: { limit: 1, intervalMs: Infinity } }))).toBeInstanceOf(TypeError);
  });

  it("refuses a field it does not know in rateLimit, circuitBreaker and retry, where a misspelt one left its default in force", () => {
    const register = (options: object) => () => new ToolRegistry().register(tool("a"), () => 1, { effects: "idempotent", ...options });
    // `keys` for `key`: one limit for every user instead of one per user.
    expect(register({ rateLimit: { limit: 1, intervalMs: 1_000, keys: () => "u" } })).toThrow(new TypeError('unknown option "rateLimit.keys": the options of rateLimit are limit, intervalMs, key'));
    expect(register({ circuitBreaker: { failureThreshold: 1, resetAfterMs: 1, halfOpenAfter: 5 } })).toThrow(
      new TypeError('unknown option "circuitBreaker.halfOpenAfter": the options of circuitBreaker are failureThreshold, resetAfterMs'),
    );
    expect(register({ retry: { retries: 1, minDelay: 1 } })).toThrow(new TypeError('unknown option "retry.minDelay": the options of retry are retries, minDelayMs, maxDelayMs'));
    expect(register({ retry: { retries: 1, minDelay: undefined } })).not.toThrow();
  });
});

describe("circuitBreaker", () => {
  it("opens after the threshold of failures in a row, and closes after a successful trial", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    let healthy = false;
    let runs = 0;
    const tools = new ToolRegistry().register(
      tool("api"),
      () => {
        runs++;
        if (!healthy) throw new Error("503");
        return "up";
      },
      { circuitBreaker: { failureThreshold: 3, resetAfterMs: 1_000 } },
    );
    for (let n = 0; n < 3; n++) expect(await rejectionOf(tools.dispatch(toolCall("api", { n })))).toMatchObject({ name: "ToolExecutionError" });
    const open = await rejectionOf(tools.dispatch(toolCall("api", { n: 4 })));
    expect(open).toBeInstanceOf(ToolUnavailableError);
    expect((open as ToolUnavailableError).retryAfterMs).toBe(1_000);
    expect(failureContent(open)).toContain("unavailable after repeated failures");
    expect(runs).toBe(3);
    vi.advanceTimersByTime(1_000);
    healthy = true;
    expect(await tools.dispatch(toolCall("api", { n: 5 }))).toBe("up");
    expect(await tools.dispatch(toolCall("api", { n: 6 }))).toBe("up");
    expect(runs).toBe(5);
  });

  it("keeps its one trial when a call admitted before the circuit opened is aborted", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const waiting: Array<() => void> = [];
    let failNext = false;
    let runs = 0;
    const tools = new ToolRegistry().register(
      tool("api"),
      (_args, { signal }) => {
        runs++;
        if (failNext) {
          failNext = false;
          throw new Error("503");
        }
        return new Promise((resolve, reject) => {
          waiting.push(() => resolve("up"));
          signal.addEventListener("abort", () => reject(signal.reason));
        });
      },
      { circuitBreaker: { failureThreshold: 1, resetAfterMs: 100 } },
    );
    const before = new AbortController();
    const admittedBefore = rejectionOf(tools.dispatch(toolCall("api", { n: 1 }), { signal: before.signal }));
    failNext = true;
    expect(await rejectionOf(tools.dispatch(toolCall("api", { n: 2 })))).toMatchObject({ name: "ToolExecutionError" });
    vi.advanceTimersByTime(100);
    const trial = tools.dispatch(toolCall("api", { n: 3 }));
    await vi.waitFor(() => expect(runs).toBe(3));
    before.abort();
    await admittedBefore;
    expect(await rejectionOf(tools.dispatch(toolCall("api", { n: 4 })))).toBeInstanceOf(ToolUnavailableError);
    expect(runs).toBe(3);
    waiting.splice(0).forEach((letGo) => letGo());
    expect(await trial).toBe("up");
  });

  it("opens again when the half-open trial fails, and lets only one trial through at a time", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    let release!: () => void;
    let runs = 0;
    const tools = new ToolRegistry().register(
      tool("api"),
      async () => {
        runs++;
        await new Promise<void>((resolve) => (release = resolve));
        throw new Error("still down");
      },
      { circuitBreaker: { failureThreshold: 1, resetAfterMs: 100 } },
    );
    const first = rejectionOf(tools.dispatch(toolCall("api", { n: 1 })));
    await vi.waitFor(() => expect(runs).toBe(1));
    release();
    await first;
    vi.advanceTimersByTime(100);
    const trial = rejectionOf(tools.dispatch(toolCall("api", { n: 2 })));
    await vi.waitFor(() => expect(runs).toBe(2));
    expect(await rejectionOf(tools.dispatch(toolCall("api", { n: 3 })))).toBeInstanceOf(ToolUnavailableError);
    release();
    await trial;
    expect(await rejectionOf(tools.dispatch(toolCall("api", { n: 4 })))).toMatchObject({ name: "ToolUnavailableError", retryAfterMs: 100 });
    expect(runs).toBe(2);
  });

  it("refuses the calls that waited for their turn once the calls before them opened it", async () => {
    let runs = 0;
    const tools = new ToolRegistry().register(
      tool("api"),
      async () => {
        runs++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw new Error("down");
      },
      { concurrency: 1, circuitBreaker: { failureThreshold: 2, resetAfterMs: 60_000 } },
    );
    const results = await tools.dispatchAll(Array.from({ length: 6 }, (_, n) => toolCall("api", { n })));
    expect(results.map((result) => result.status === "error" && result.error.name)).toEqual([
      "ToolExecutionError",
      "ToolExecutionError",
      "ToolUnavailableError",
      "ToolUnavailableError",
      "ToolUnavailableError",
      "ToolUnavailableError",
    ]);
    expect(runs).toBe(2);
  });

  it("runs no retry once other calls opened it during the retry's wait: the call ends with its last failure", async () => {
    const runs: number[] = [];
    const tools = new ToolRegistry().register(
      tool("flaky"),
      ({ n }) => {
        runs.push(n);
        throw new Error("down");
      },
      { effects: "idempotent", retry: { retries: 1, minDelayMs: 200, maxDelayMs: 200 }, circuitBreaker: { failureThreshold: 2, resetAfterMs: 60_000 } },
    );
    const retried = rejectionOf(tools.dispatch(toolCall("flaky", { n: 1 })));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A second failure in a row opens the circuit while the first call waits to retry.
    expect(await rejectionOf(tools.dispatch(toolCall("flaky", { n: 2 })))).toMatchObject({ name: "ToolExecutionError" });
    expect(await rejectionOf(tools.dispatch(toolCall("flaky", { n: 3 })))).toBeInstanceOf(ToolUnavailableError);
    expect(await retried).toMatchObject({ name: "ToolExecutionError" });
    expect(runs).toEqual([1, 2]);
  });

  it("does not count refused arguments as failures", async () => {
    const tools = new ToolRegistry().register(tool("api"), () => "up", { circuitBreaker: { failureThreshold: 1, resetAfterMs: 60_000 } });
    await rejectionOf(tools.dispatch(toolCall("api", { n: "bad" })));
    expect(await tools.dispatch(toolCall("api", { n: 1 }))).toBe("up");
  });
});

describe("retry", () => {
  it("retries execution failures and timeouts of a tool safe to repeat, then succeeds", async () => {
    let attempts = 0;
    const tools = new ToolRegistry().register(
      tool("fetch"),
      async () => {
        attempts++;
        if (attempts === 1) throw new Error("ECONNRESET");
        if (attempts === 2) await new Promise((resolve) => setTimeout(resolve, 50));
        return "body";
      },
      { effects: "read-only", timeoutMs: 20, retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 } },
    );
    expect(await tools.dispatch(toolCall("fetch", { n: 1 }))).toBe("body");
    expect(attempts).toBe(3);
  });

  it("gives up after its retries with the last error", async () => {
    let attempts = 0;
    const tools = new ToolRegistry().register(tool("fetch"), () => {
      attempts++;
      throw new Error(`failure ${attempts}`);
    }, { effects: "idempotent", retry: { retries: 2, minDelayMs: 0 } });
    expect(((await rejectionOf(tools.dispatch(toolCall("fetch", { n: 1 })))) as Error).message).toContain("failure 3");
    expect(attempts).toBe(3);
  });

  it("never retries a validation failure or the caller's abort", async () => {
    let attempts = 0;
    const controller = new AbortController();
    const tools = new ToolRegistry().register(tool("fetch"), async (_, { signal }) => {
      attempts++;
      controller.abort();
      signal.throwIfAborted();
    }, { effects: "read-only", retry: { retries: 5, minDelayMs: 0 } });
    await rejectionOf(tools.dispatch(toolCall("fetch", { n: "x" })));
    expect(attempts).toBe(0);
    expect(await rejectionOf(tools.dispatch(toolCall("fetch", { n: 1 }), { signal: controller.signal }))).toMatchObject({ name: "ToolAbortedError" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(attempts).toBe(1);
  });

  it("never overlaps the timed-out attempt it replaces under a concurrency limit or a lock: it waits for it to settle", async () => {
    let attempts = 0;
    let running = 0;
    let mostAtOnce = 0;
    const tools = new ToolRegistry().register(
      tool("write"),
      async () => {
        attempts++;
        mostAtOnce = Math.max(mostAtOnce, ++running);
        await new Promise((resolve) => setTimeout(resolve, attempts === 1 ? 120 : 5));
        running--;
        return "written";
      },
      { effects: "idempotent", timeoutMs: 100, concurrency: 1, exclusive: "fs:write", retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 } },
    );
    expect(await tools.dispatch(toolCall("write", { n: 1 }))).toBe("written");
    expect(attempts).toBe(2);
    expect(mostAtOnce).toBe(1);
  });

  it("gives up with the timeout when the timed-out attempt it would replace runs on past one more time limit", async () => {
    let attempts = 0;
    const tools = new ToolRegistry().register(
      tool("write"),
      async () => {
        attempts++;
        await new Promise((resolve) => setTimeout(resolve, 300));
      },
      { effects: "idempotent", timeoutMs: 30, concurrency: 1, retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 } },
    );
    expect(await rejectionOf(tools.dispatch(toolCall("write", { n: 1 })))).toMatchObject({ name: "ToolTimeoutError", started: true });
    expect(attempts).toBe(1);
  });

  it("stops waiting for its timed-out attempt when the caller aborted meanwhile, with the caller's abort", async () => {
    const controller = new AbortController();
    const tools = new ToolRegistry().register(
      tool("write"),
      // When its own signal aborts (the time limit), the handler aborts the caller too, and runs on.
      (_, { signal }) => {
        signal.addEventListener("abort", () => controller.abort());
        return new Promise(() => undefined);
      },
      { effects: "idempotent", timeoutMs: 30, concurrency: 1, retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 } },
    );
    expect(await rejectionOf(tools.dispatch(toolCall("write", { n: 1 }), { signal: controller.signal }))).toMatchObject({ name: "ToolAbortedError" });
  });

  it("is refused at register for a tool not declared safe to repeat", () => {
    expect(thrownBy(() => new ToolRegistry().register(tool("pay"), () => 1, { retry: { retries: 1 } }))).toBeInstanceOf(TypeError);
    expect(thrownBy(() => new ToolRegistry().register(tool("pay"), () => 1, { effects: "once", retry: { retries: 1 } }))).toBeInstanceOf(TypeError);
  });

  it("waits with jittered exponential backoff within its bounds", () => {
    expect(retryDelay(1, 100, 5_000, () => 0)).toBe(100);
    expect(retryDelay(3, 100, 5_000, () => 1)).toBe(400);
    expect(retryDelay(3, 100, 5_000, () => 0)).toBe(200);
    expect(retryDelay(20, 100, 5_000, () => 1)).toBe(5_000);
    for (let attempt = 1; attempt < 30; attempt++) {
      const delay = retryDelay(attempt, 10, 1_000);
      expect(delay).toBeGreaterThanOrEqual(10);
      expect(delay).toBeLessThanOrEqual(1_000);
    }
  });
});
