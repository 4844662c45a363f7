/**
 * A minimal safetensors reader: an 8-byte little-endian header length, a JSON header naming each
 * tensor's dtype, shape and byte range, then the raw little-endian data. Only what model2vec
 * writes is supported (F32, F16, BF16, integer mappings).
 */

/** One tensor, widened to float32 (or int32 for integer tensors). */
export interface Tensor {
  dtype: string;
  shape: number[];
  data: Float32Array | Int32Array;
}

interface HeaderEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

const BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2, F64: 8, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1 };

/** Tensor names and metadata of a safetensors file. */
export function readHeader(bytes: Uint8Array): { entries: Record<string, HeaderEntry>; dataStart: number } {
  if (bytes.byteLength < 8) throw new Error('safetensors: file too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = Number(view.getBigUint64(0, true));
  if (8 + len > bytes.byteLength) throw new Error('safetensors: header length beyond end of file');
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + len))) as Record<string, unknown>;
  delete header.__metadata__;
  return { entries: header as Record<string, HeaderEntry>, dataStart: 8 + len };
}

/**
 * Reads one tensor, or null when the file has no tensor of that name. F32 data that happens to
 * be 4-byte aligned is viewed in place (no copy of a 100+ MB table); anything else is copied.
 */
export function readTensor(bytes: Uint8Array, name: string): Tensor | null {
  const { entries, dataStart } = readHeader(bytes);
  const e = entries[name];
  if (!e) return null;
  const [from, to] = e.data_offsets;
  const width = BYTES[e.dtype];
  if (!width) throw new Error(`safetensors: unsupported dtype ${e.dtype} for ${name}`);
  const count = e.shape.reduce((a, b) => a * b, 1);
  if (to - from !== count * width || dataStart + to > bytes.byteLength) {
    throw new Error(`safetensors: ${name} has ${to - from} bytes for shape [${e.shape}] ${e.dtype}`);
  }
  const at = bytes.byteOffset + dataStart + from;
  const view = new DataView(bytes.buffer, at, to - from);
  let data: Float32Array | Int32Array;
  switch (e.dtype) {
    case 'F32':
      data =
        at % 4 === 0
          ? new Float32Array(bytes.buffer, at, count)
          : new Float32Array(bytes.slice(at - bytes.byteOffset, at - bytes.byteOffset + count * 4).buffer);
      break;
    case 'F64':
      data = Float32Array.from({ length: count }, (_, i) => view.getFloat64(i * 8, true));
      break;
    case 'F16':
      data = Float32Array.from({ length: count }, (_, i) => halfToFloat(view.getUint16(i * 2, true)));
      break;
    case 'BF16':
      data = Float32Array.from({ length: count }, (_, i) => bf16ToFloat(view.getUint16(i * 2, true)));
      break;
    case 'I64':
      data = Int32Array.from({ length: count }, (_, i) => Number(view.getBigInt64(i * 8, true)));
      break;
    case 'I32':
      data = Int32Array.from({ length: count }, (_, i) => view.getInt32(i * 4, true));
      break;
    case 'I16':
      data = Int32Array.from({ length: count }, (_, i) => view.getInt16(i * 2, true));
      break;
    default:
      // I8/U8 tables are model2vec's int8 quantisation: widened as they are, as numpy does.
      data = Float32Array.from({ length: count }, (_, i) => (e.dtype === 'I8' ? view.getInt8(i) : view.getUint8(i)));
  }
  return { dtype: e.dtype, shape: e.shape, data };
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

function bf16ToFloat(h: number): number {
  U32[0] = h << 16;
  return F32[0]!;
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}
