/**
 * The `format`s asserted when a tool's checks are asked to (`assertFormats`): the forms of RFC
 * 3339 (`date-time`, `date`, `time`), RFC 5321's mailbox as JSON Schema's `email` (a local part
 * and a domain, without comments or quoted strings), RFC 3986's absolute `uri` (a scheme, then
 * no spaces or characters URIs never hold), RFC 4122's `uuid`, and RFC 2673's dotted `ipv4` and
 * RFC 4291's `ipv6` (with `::` and an IPv4 tail). Bounded: each reads its string once.
 *
 * @module
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(z|[+-](\d{2}):(\d{2}))$/i;
const EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEXTET = /^[0-9a-f]{1,4}$/i;

function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

function isTime(text: string): boolean {
  const match = TIME.exec(text);
  if (!match) return false;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const offset = match[6] === undefined ? [0, 0] : [Number(match[6]), Number(match[7])];
  // A leap second (60) is allowed, as RFC 3339 allows it; its exact UTC minute is not checked.
  return hour <= 23 && minute <= 59 && second <= 60 && offset[0]! <= 23 && offset[1]! <= 59;
}

function isIpv6(text: string): boolean {
  if (text.length > 45) return false;
  let head = text;
  if (text.includes(".")) {
    // An IPv4 tail stands for the last two groups.
    const lastColon = text.lastIndexOf(":");
    if (lastColon < 0 || !IPV4.test(text.slice(lastColon + 1))) return false;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split("::");
  if (halves.length > 2) return false;
  const parts = halves.map((half) => (half === "" ? [] : half.split(":")));
  if (!parts.every((list) => list.every((part) => HEXTET.test(part)))) return false;
  const count = parts.reduce((sum, list) => sum + list.length, 0);
  return halves.length === 2 ? count < 8 : count === 8;
}

/** Whether `text` is of the named format; a format not asserted is always met. */
export function meetsFormat(format: string, text: string): boolean {
  switch (format) {
    case "date":
      return isDate(text);
    case "time":
      return isTime(text);
    case "date-time": {
      const t = text.search(/[tT]/);
      return t === 10 && isDate(text.slice(0, t)) && isTime(text.slice(t + 1));
    }
    case "email":
      return text.length <= 254 && EMAIL.test(text);
    case "uri":
      return URI.test(text);
    case "uuid":
      return UUID.test(text);
    case "ipv4":
      return IPV4.test(text);
    case "ipv6":
      return isIpv6(text);
    default:
      return true;
  }
}
