import type { ToolCallDelta } from "../../types.js";

/**
 * An adapter's deltas, read from `stream` by `read`, that stop at once when the loop over them is
 * left. An async generator's `return()` waits until it next yields, so a reader among events that
 * give no delta (the model writing text) went on pulling the SDK's stream, maybe to its end. Here
 * `return()` (or `throw()`) lets `read` pull nothing more (a read already under way still arrives)
 * and asks the SDK's iterator to stop, which makes the `openai` and Anthropic SDKs end the request.
 * The stream's `controller` is not aborted: a stream `tee()`d shares it with the other branch.
 * A plain array (or any iterable) of events is read as `for await` reads it.
 */
export function stoppableDeltas<TEvent>(
  stream: AsyncIterable<TEvent> | Iterable<TEvent>,
  read: (events: AsyncIterable<TEvent>) => AsyncGenerator<ToolCallDelta, void, undefined>,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  let source: AsyncIterator<TEvent> | undefined;
  let stopped = false;
  const events: AsyncIterable<TEvent> = {
    [Symbol.asyncIterator]: () => {
      source ??= eventsOf(stream);
      const iterator = source;
      return {
        next: () => (stopped ? Promise.resolve({ done: true, value: undefined }) : iterator.next()),
        // Once stopped, the SDK's iterator was asked already.
        return: (value?: unknown) => (stopped ? Promise.resolve({ done: true, value: undefined }) : Promise.resolve(iterator.return?.(value) ?? { done: true, value: undefined })),
      };
    },
  };
  const deltas = read(events);
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    try {
      void source?.return?.()?.then(undefined, () => undefined);
    } catch {
      // A stream that cannot stop has nothing more to say: nothing more is read from it.
    }
  };
  const stoppable: AsyncGenerator<ToolCallDelta, void, undefined> = {
    next: () => deltas.next(),
    return: (value) => {
      stop();
      return deltas.return(value);
    },
    throw: (error: unknown) => {
      stop();
      return deltas.throw(error);
    },
    [Symbol.asyncIterator]: () => stoppable,
  };
  return stoppable;
}

/** The iterator of a stream of events: its own, or for a plain iterable one that awaits each item, as `for await` does. */
function eventsOf<TEvent>(stream: AsyncIterable<TEvent> | Iterable<TEvent>): AsyncIterator<TEvent> {
  if (typeof (stream as AsyncIterable<TEvent>)[Symbol.asyncIterator] === "function") return (stream as AsyncIterable<TEvent>)[Symbol.asyncIterator]();
  return (async function* () {
    yield* stream as Iterable<TEvent>;
  })();
}
