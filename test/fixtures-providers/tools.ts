import { ToolRegistry, Type } from "../../src/index.js";

export const weatherParameters = Type.Object({
  city: Type.String(),
  unit: Type.Optional(Type.Union([Type.Literal("celsius"), Type.Literal("fahrenheit")])),
});

export const rideParameters = Type.Object({
  loc: Type.String(),
  type: Type.Union([Type.Literal("plus"), Type.Literal("comfort"), Type.Literal("black")]),
  time: Type.Integer({ minimum: 0 }),
});

/** What each handler received, in call order. */
export type CallLog = Array<{ tool: string; args: unknown }>;

/**
 * A registry with the tools the provider tests replay calls to: `get_weather`
 * (returns an object) and `uber.ride` (a BFCL name OpenAI and Anthropic refuse; returns text).
 */
export function weatherAndRideRegistry(log: CallLog = []): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register({ name: "get_weather", description: "Current weather in a city", parameters: weatherParameters }, (args) => {
    log.push({ tool: "get_weather", args });
    return { city: args.city, temperature: 21, unit: args.unit ?? "celsius" };
  });
  registry.register({ name: "uber.ride", description: "Book an Uber ride", parameters: rideParameters }, (args) => {
    log.push({ tool: "uber.ride", args });
    return `Booked a ${args.type} ride from ${args.loc} in ${args.time} minutes`;
  });
  return registry;
}
