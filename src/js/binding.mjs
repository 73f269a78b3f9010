// The JS half of the binding's calling convention (src/bindings/values.hpp): a call's arguments object is written into
// one block of the module's heap as float64 slots, in the order of the call's field table, which the module describes
// (argumentFields(), as JSON); the binding reads the slots back through the same table. Only the object's own properties are
// read (an inherited one counts as absent), and nothing crosses as a JS object, so whatever Object.prototype holds
// reaches neither the binding nor the core.

const { hasOwn } = Object;
const encoder = new TextEncoder();

/**
 * A writer of one kind of member (the module's description, values.hpp's kind_of): (slots, value) appends its slots.
 * `undefined` is an absent member: the core's default applies.
 */
function writerOf(kind) {
  if (kind === 'number') return (slots, value) => (value === undefined ? slots.push(0) : slots.given(+value));
  if (kind === 'text') return (slots, value) => (value === undefined ? slots.push(0) : slots.text(value));
  if (kind === 'numberOrText')  // 0, or 1 and the number, or 2 and the text's slots
    return (slots, value) => (value === undefined ? slots.push(0) : typeof value === 'string' ? slots.text(value, 2) : slots.given(+value));
  if (kind === 'numbers') return (slots, values) => slots.numbers(values);
  if (kind.optional !== undefined) {
    const write = writerOf(kind.optional);
    return (slots, value) => {
      slots.push(value === undefined ? 0 : 1);
      if (value !== undefined) write(slots, value);
    };
  }
  if (kind.list !== undefined) {
    const write = writerOf(kind.list);
    return (slots, items) => {
      slots.push(items.length);
      for (const item of items) write(slots, item);
    };
  }
  const members = kind.fields.map(([name, member]) => [name, writerOf(member)]);
  return (slots, object) => {
    for (const [name, write] of members) write(slots, hasOwn(object, name) ? object[name] : undefined);
  };
}

/** A growable list of float64 slots; slot 0 holds the count of those after it. */
class Slots {
  #values = new Float64Array(64);
  #count = 1;

  #room(n) {
    if (this.#count + n <= this.#values.length) return;
    const values = new Float64Array(Math.max(2 * this.#values.length, this.#count + n));
    values.set(this.#values.subarray(0, this.#count));
    this.#values = values;
  }

  reset() {
    this.#count = 1;
  }

  push(value) {
    this.#room(1);
    this.#values[this.#count++] = value;
  }

  /** 1, then the value. */
  given(value) {
    this.#room(2);
    this.#values[this.#count++] = 1;
    this.#values[this.#count++] = value;
  }

  numbers(values) {
    this.#room(values.length + 1);
    this.#values[this.#count++] = values.length;
    for (const value of values) this.#values[this.#count++] = value;
  }

  /** `marker` (1), the UTF-8 length n, then ceil(n / 8) slots of bytes. */
  text(string, marker = 1) {
    // (most strings are a dtype's name: ASCII, one byte a character)
    const ascii = /^[\x00-\x7f]*$/.test(string);
    const bytes = ascii ? null : encoder.encode(string);
    const length = ascii ? string.length : bytes.length;
    const n = Math.ceil(length / 8);
    this.#room(2 + n);
    this.#values[this.#count++] = marker;
    this.#values[this.#count++] = length;
    this.#values.fill(0, this.#count, this.#count + n);
    const to = new Uint8Array(this.#values.buffer, 8 * this.#count, length);
    if (ascii) for (let i = 0; i < length; ++i) to[i] = string.charCodeAt(i);
    else to.set(bytes);
    this.#count += n;
  }

  /** The slots as bytes, their count first. */
  bytes() {
    this.#values[0] = this.#count - 1;
    return new Uint8Array(this.#values.buffer, 0, 8 * this.#count);
  }
}

/**
 * The module's bound calls as functions of one arguments object: an object whose prototype is the module (its heap,
 * malloc and other functions), with each function argumentFields() describes taking a plain object and returning
 * its outcome ({ results }, { error }, ...), as the binding's functions did when embind read the object itself.
 */
export function bindCalls(module) {
  const bound = Object.create(module);
  const slots = new Slots();
  for (const [name, kind] of Object.entries(JSON.parse(module.argumentFields()))) {
    const write = writerOf(kind);
    const call = module[name];
    bound[name] = (args) => {
      slots.reset();
      write(slots, args);
      const bytes = slots.bytes();
      const address = module._malloc(bytes.length);
      if (!address) return { error: `out of memory: the WebAssembly heap cannot hold the ${bytes.length} bytes of this call's arguments` };
      module.HEAPU8.set(bytes, address);
      const outcome = call(address);
      module._free(address);  // (not after a trap: the instance is not used again then)
      return outcome;
    };
  }
  return bound;
}
