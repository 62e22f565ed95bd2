/**
 * `multipleOf` in exact decimal arithmetic. Each number is taken as the decimal it is written as
 * in JSON (the shortest decimal that reads back as the same double, as `String(number)` writes
 * it), and `value` is a multiple of `divisor` when their quotient is an integer, exactly. So
 * `0.3` is a multiple of `0.1`, `10.00000000005` is not a multiple of `0.01`, and a tiny divisor
 * does not accept every number. Integers take a fast path.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor <= 0) return false;
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const [valueDigits, valueExponent] = decimal(value);
  const [divisorDigits, divisorExponent] = decimal(divisor);
  if (valueDigits === 0n) return true;
  // value = vd * 10^ve, divisor = dd * 10^de: scale both to the smaller exponent, then compare as integers.
  const exponent = valueExponent < divisorExponent ? valueExponent : divisorExponent;
  const scaledValue = valueDigits * 10n ** BigInt(valueExponent - exponent);
  const scaledDivisor = divisorDigits * 10n ** BigInt(divisorExponent - exponent);
  return scaledValue % scaledDivisor === 0n;
}

/** A finite number as `digits * 10^exponent`, from its shortest round-trip decimal text. */
function decimal(number: number): [bigint, number] {
  const text = String(Math.abs(number));
  const [mantissa = "0", exponentText = "0"] = text.split("e");
  const [whole = "0", fraction = ""] = mantissa.split(".");
  return [BigInt(whole + fraction), Number(exponentText) - fraction.length];
}
