'use strict';
// Captured before any student code loads: later patches of these globals cannot
// change what the harness itself does (the same idea as Node core's primordials).
const fs = require('node:fs');

const uncurry = (fn) => Function.prototype.call.bind(fn);

module.exports = Object.freeze({
  ObjectKeys: Object.keys,
  ObjectFreeze: Object.freeze,
  ObjectCreate: Object.create,
  ObjectSetPrototypeOf: Object.setPrototypeOf,
  ObjectDefineProperty: Object.defineProperty,
  ObjectGetOwnPropertyDescriptor: Object.getOwnPropertyDescriptor,
  ObjectGetOwnPropertyNames: Object.getOwnPropertyNames,
  ObjectGetOwnPropertySymbols: Object.getOwnPropertySymbols,
  ObjectIs: Object.is,
  ObjectHasOwn: Object.hasOwn,
  ReflectApply: Reflect.apply,
  ReflectGet: Reflect.get,
  JSONStringify: JSON.stringify,
  JSONParse: JSON.parse,
  ArrayIsArray: Array.isArray,
  ArrayPush: uncurry(Array.prototype.push),
  ArrayPop: uncurry(Array.prototype.pop),
  StringSlice: uncurry(String.prototype.slice),
  StringSplit: uncurry(String.prototype.split),
  PromiseThen: uncurry(Promise.prototype.then),
  OrigPromise: Promise,
  SafeMap: Map,
  MapGet: uncurry(Map.prototype.get),
  MapSet: uncurry(Map.prototype.set),
  MapHas: uncurry(Map.prototype.has),
  DateNow: Date.now,
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setImmediate: globalThis.setImmediate,
  hrtime: process.hrtime.bind(process),
  writeSync: fs.writeSync,
  readFileSync: fs.readFileSync,
  String,
  Error,
});
