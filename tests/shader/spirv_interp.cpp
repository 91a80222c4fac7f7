#include "spirv_interp.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

namespace novem::test {

namespace {

using spv::Op;

constexpr uint32_t op_(Op o) { return static_cast<uint32_t>(o); }
float f(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t b(float v) { return std::bit_cast<uint32_t>(v); }
int32_t s(uint32_t bits) { return static_cast<int32_t>(bits); }

std::string str(const std::vector<uint32_t>& w, size_t first) {
  std::string out;
  for (size_t i = first; i < w.size(); ++i)
    for (int k = 0; k < 4; ++k) {
      const char c = static_cast<char>((w[i] >> (8 * k)) & 0xFFu);
      if (!c) return out;
      out.push_back(c);
    }
  return out;
}

}  // namespace

SpirvInterpreter::SpirvInterpreter(std::span<const uint32_t> words) {
  if (words.size() < 5 || words[0] != spv::MagicNumber) {
    fail("not a SPIR-V module");
    return;
  }
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    if (!count || i + count > words.size()) {
      fail("malformed instruction stream");
      return;
    }
    insts_.push_back(Inst{words[i] & 0xFFFFu, std::vector<uint32_t>(words.begin() + static_cast<ptrdiff_t>(i) + 1,
                                                                    words.begin() + static_cast<ptrdiff_t>(i + count))});
    i += count;
  }

  bool in_function = false;
  for (size_t idx = 0; idx < insts_.size(); ++idx) {
    const Inst& in = insts_[idx];
    const auto& w = in.w;
    switch (static_cast<Op>(in.op)) {
      case Op::OpEntryPoint:
        if (str(w, 2) == "main") main_ = w[1];
        break;
      case Op::OpExtInstImport:
        if (str(w, 1) == "GLSL.std.450") glsl_set_ = w[0];
        break;
      case Op::OpDecorate:
        switch (static_cast<spv::Decoration>(w[1])) {
          case spv::Decoration::Location: locations_[w[0]] = w[2]; break;
          case spv::Decoration::BuiltIn: builtins_[w[0]] = w[2]; break;
          case spv::Decoration::DescriptorSet: sets_[w[0]] = w[2]; break;
          case spv::Decoration::Binding: bindings_[w[0]] = w[2]; break;
          case spv::Decoration::ArrayStride: array_strides_[w[0]] = w[2]; break;
          default: break;
        }
        break;
      case Op::OpMemberDecorate:
        switch (static_cast<spv::Decoration>(w[2])) {
          case spv::Decoration::Offset: member_offsets_[{w[0], w[1]}] = w[3]; break;
          case spv::Decoration::BuiltIn: member_builtins_[{w[0], w[1]}] = w[3]; break;
          case spv::Decoration::MatrixStride: member_matrix_strides_[{w[0], w[1]}] = w[3]; break;
          case spv::Decoration::RowMajor: fail("RowMajor is not supported"); break;
          default: break;
        }
        break;
      case Op::OpTypeVoid:
      case Op::OpTypeBool:
      case Op::OpTypeInt:
      case Op::OpTypeFloat:
      case Op::OpTypeVector:
      case Op::OpTypeMatrix:
      case Op::OpTypeArray:
      case Op::OpTypeStruct:
      case Op::OpTypePointer:
      case Op::OpTypeFunction: {
        Type t;
        t.op = in.op;
        switch (static_cast<Op>(in.op)) {
          case Op::OpTypeBool: t.is_bool = true; t.size = 1; break;
          case Op::OpTypeInt:
            if (w[1] != 32) fail("only 32-bit ints");
            t.is_int = true;
            t.size = 1;
            break;
          case Op::OpTypeFloat:
            if (w[1] != 32) fail("only 32-bit floats");
            t.is_float = true;
            t.size = 1;
            break;
          case Op::OpTypeVector:
          case Op::OpTypeMatrix:
            t.elem = w[1];
            t.count = w[2];
            t.size = t.count * flat_size(t.elem);
            break;
          case Op::OpTypeArray:
            t.elem = w[1];
            t.count = values_.count(w[2]) ? values_[w[2]].at(0) : 0;
            t.size = t.count * flat_size(t.elem);
            break;
          case Op::OpTypeStruct:
            t.members.assign(w.begin() + 1, w.end());
            for (uint32_t m : t.members) t.size += flat_size(m);
            break;
          case Op::OpTypePointer: t.elem = w[2]; break;
          default: break;
        }
        types_[w[0]] = std::move(t);
        break;
      }
      case Op::OpConstant:
        values_[w[1]] = {w[2]};
        result_types_[w[1]] = w[0];
        break;
      case Op::OpConstantTrue:
      case Op::OpConstantFalse:
        values_[w[1]] = {in.op == op_(Op::OpConstantTrue) ? 1u : 0u};
        result_types_[w[1]] = w[0];
        break;
      case Op::OpConstantNull:
        values_[w[1]] = std::vector<uint32_t>(flat_size(w[0]), 0u);
        result_types_[w[1]] = w[0];
        break;
      case Op::OpConstantComposite: {
        std::vector<uint32_t> v;
        for (size_t k = 2; k < w.size(); ++k) {
          const auto& part = values_[w[k]];
          v.insert(v.end(), part.begin(), part.end());
        }
        values_[w[1]] = std::move(v);
        result_types_[w[1]] = w[0];
        break;
      }
      case Op::OpVariable:
        if (!in_function) {
          const Type* pt = type(w[0]);
          const uint32_t pointee = pt ? pt->elem : 0;
          storage_[w[1]] = w.size() > 3 ? values_[w[3]] : std::vector<uint32_t>(flat_size(pointee), 0u);
          pointers_[w[1]] = Pointer{w[1], 0, pointee};
          var_storage_class_[w[1]] = w[2];
        }
        break;
      case Op::OpFunction:
        in_function = true;
        function_begins_[w[1]] = idx + 1;
        if (w[1] == main_) main_begin_ = idx + 1;
        break;
      case Op::OpFunctionEnd:
        if (main_begin_ && !main_end_) main_end_ = idx;
        in_function = false;
        break;
      case Op::OpLabel: labels_[w[0]] = idx; break;
      default: break;
    }
  }
  if (!main_ || !main_begin_) fail("no main entry point");
}

const SpirvInterpreter::Type* SpirvInterpreter::type(uint32_t id) const {
  auto it = types_.find(id);
  return it == types_.end() ? nullptr : &it->second;
}

uint32_t SpirvInterpreter::flat_size(uint32_t type_id) const {
  const Type* t = type(type_id);
  return t ? t->size : 0;
}

uint32_t SpirvInterpreter::member_offset(uint32_t struct_type, uint32_t member) const {
  const Type* t = type(struct_type);
  uint32_t off = 0;
  for (uint32_t m = 0; t && m < member && m < t->members.size(); ++m) off += flat_size(t->members[m]);
  return off;
}

void SpirvInterpreter::load_bytes(uint32_t type_id, const uint8_t* base, size_t size,
                                  size_t byte_offset, std::vector<uint32_t>& out,
                                  uint32_t flat_offset, uint32_t matrix_stride) {
  const Type* t = type(type_id);
  if (!t) return;
  auto scalar = [&](size_t at, uint32_t index) {
    uint32_t v = 0;
    if (at + 4 <= size) std::memcpy(&v, base + at, 4);
    else fail("uniform data too short");
    if (index < out.size()) out[index] = v;
  };
  switch (static_cast<Op>(t->op)) {
    case Op::OpTypeBool:
    case Op::OpTypeInt:
    case Op::OpTypeFloat: scalar(byte_offset, flat_offset); break;
    case Op::OpTypeVector:
      for (uint32_t i = 0; i < t->count; ++i) scalar(byte_offset + 4 * i, flat_offset + i);
      break;
    case Op::OpTypeMatrix:
      for (uint32_t c = 0; c < t->count; ++c)
        load_bytes(t->elem, base, size, byte_offset + size_t(c) * (matrix_stride ? matrix_stride : 16), out,
                   flat_offset + c * flat_size(t->elem), 0);
      break;
    case Op::OpTypeArray: {
      const uint32_t stride = array_strides_.count(type_id) ? array_strides_.at(type_id) : 16;
      for (uint32_t i = 0; i < t->count; ++i)
        load_bytes(t->elem, base, size, byte_offset + size_t(i) * stride, out,
                   flat_offset + i * flat_size(t->elem), matrix_stride);
      break;
    }
    case Op::OpTypeStruct:
      for (uint32_t m = 0; m < t->members.size(); ++m) {
        auto off = member_offsets_.find({type_id, m});
        if (off == member_offsets_.end()) {
          fail("struct member without Offset in a uniform block");
          return;
        }
        auto ms = member_matrix_strides_.find({type_id, m});
        load_bytes(t->members[m], base, size, byte_offset + off->second, out,
                   flat_offset + member_offset(type_id, m), ms == member_matrix_strides_.end() ? 0 : ms->second);
      }
      break;
    default: fail("unsupported type in a uniform block"); break;
  }
}

void SpirvInterpreter::set_input(uint32_t location, std::array<float, 4> value) {
  for (auto& [var, sc] : var_storage_class_) {
    if (sc != static_cast<uint32_t>(spv::StorageClass::Input)) continue;
    auto loc = locations_.find(var);
    if (loc == locations_.end() || loc->second != location) continue;
    auto& st = storage_[var];
    for (size_t i = 0; i < st.size() && i < 4; ++i) st[i] = b(value[i]);
  }
}

void SpirvInterpreter::set_uniform(uint32_t set, uint32_t binding, const void* data, size_t size) {
  for (auto& [var, sc] : var_storage_class_) {
    if (sc != static_cast<uint32_t>(spv::StorageClass::Uniform)) continue;
    if (sets_.count(var) == 0 || sets_[var] != set || bindings_.count(var) == 0 || bindings_[var] != binding)
      continue;
    load_bytes(pointers_[var].type, static_cast<const uint8_t*>(data), size, 0, storage_[var], 0, 0);
    return;
  }
  fail("no uniform block at that set/binding");
}

const std::vector<uint32_t>& SpirvInterpreter::val(uint32_t id) {
  auto it = values_.find(id);
  if (it == values_.end()) {
    fail("use of an undefined value %" + std::to_string(id));
    static const std::vector<uint32_t> zero(16, 0u);
    return zero;
  }
  return it->second;
}

bool SpirvInterpreter::run(size_t max_steps) {
  if (!ok()) return false;
  killed_ = false;
  call_stack_.clear();
  size_t pc = main_begin_;
  for (size_t step = 0; step < max_steps; ++step) {
    if (!ok()) return false;
    if (pc >= insts_.size() || (call_stack_.empty() && main_end_ && pc >= main_end_)) {
      fail("ran off the end of main");
      return false;
    }
    const Inst& in = insts_[pc++];
    const auto& w = in.w;
    const Op opcode = static_cast<Op>(in.op);
    auto set = [&](std::vector<uint32_t> v) {
      values_[w[1]] = std::move(v);
      result_types_[w[1]] = w[0];
    };
    auto componentwise2 = [&](auto fn) {
      const auto& x = val(w[2]);
      const auto& y = val(w[3]);
      std::vector<uint32_t> r(x.size());
      for (size_t i = 0; i < x.size(); ++i) r[i] = fn(x[i], y.size() == 1 ? y[0] : y[i]);
      set(std::move(r));
    };
    auto componentwise1 = [&](auto fn) {
      const auto& x = val(w[2]);
      std::vector<uint32_t> r(x.size());
      for (size_t i = 0; i < x.size(); ++i) r[i] = fn(x[i]);
      set(std::move(r));
    };
    switch (opcode) {
      case Op::OpLabel:
      case Op::OpSelectionMerge:
      case Op::OpLoopMerge:
      case Op::OpNop:
      case Op::OpLine:
      case Op::OpNoLine: break;
      case Op::OpVariable: {
        const Type* pt = type(w[0]);
        const uint32_t pointee = pt ? pt->elem : 0;
        storage_[w[1]] = w.size() > 3 ? val(w[3]) : std::vector<uint32_t>(flat_size(pointee), 0u);
        pointers_[w[1]] = Pointer{w[1], 0, pointee};
        break;
      }
      case Op::OpLoad: {
        auto p = pointers_.find(w[2]);
        if (p == pointers_.end()) {
          fail("load through an unknown pointer");
          break;
        }
        const auto& st = storage_[p->second.var];
        const uint32_t n = flat_size(w[0]);
        if (p->second.offset + n > st.size()) {
          fail("load out of bounds");
          break;
        }
        set(std::vector<uint32_t>(st.begin() + p->second.offset, st.begin() + p->second.offset + n));
        break;
      }
      case Op::OpStore: {
        auto p = pointers_.find(w[0]);
        if (p == pointers_.end()) {
          fail("store through an unknown pointer");
          break;
        }
        auto& st = storage_[p->second.var];
        const auto& v = val(w[1]);
        if (p->second.offset + v.size() > st.size()) {
          fail("store out of bounds");
          break;
        }
        std::copy(v.begin(), v.end(), st.begin() + p->second.offset);
        break;
      }
      case Op::OpAccessChain:
      case Op::OpInBoundsAccessChain: {
        auto p = pointers_.find(w[2]);
        if (p == pointers_.end()) {
          fail("access chain on an unknown pointer");
          break;
        }
        Pointer r = p->second;
        for (size_t k = 3; k < w.size(); ++k) {
          const uint32_t index = val(w[k]).at(0);
          const Type* t = type(r.type);
          if (!t) {
            fail("access chain through an unknown type");
            break;
          }
          if (t->op == op_(Op::OpTypeStruct)) {
            r.offset += member_offset(r.type, index);
            r.type = t->members.at(index);
          } else {
            if (index >= t->count) {
              fail("access chain index out of range");
              break;
            }
            r.offset += index * flat_size(t->elem);
            r.type = t->elem;
          }
        }
        pointers_[w[1]] = r;
        result_types_[w[1]] = w[0];
        break;
      }
      case Op::OpCompositeConstruct: {
        std::vector<uint32_t> r;
        for (size_t k = 2; k < w.size(); ++k) {
          const auto& part = val(w[k]);
          r.insert(r.end(), part.begin(), part.end());
        }
        set(std::move(r));
        break;
      }
      case Op::OpCompositeExtract:
      case Op::OpCompositeInsert: {
        const bool insert = opcode == Op::OpCompositeInsert;
        const uint32_t comp = insert ? w[3] : w[2];
        uint32_t t = result_types_[comp];
        uint32_t off = 0;
        for (size_t k = insert ? 4 : 3; k < w.size(); ++k) {
          const Type* ti = type(t);
          if (!ti) {
            fail("composite index through an unknown type");
            break;
          }
          if (ti->op == op_(Op::OpTypeStruct)) {
            off += member_offset(t, w[k]);
            t = ti->members.at(w[k]);
          } else {
            off += w[k] * flat_size(ti->elem);
            t = ti->elem;
          }
        }
        std::vector<uint32_t> c = val(comp);
        if (insert) {
          const auto& obj = val(w[2]);
          std::copy(obj.begin(), obj.end(), c.begin() + off);
          set(std::move(c));
        } else {
          set(std::vector<uint32_t>(c.begin() + off, c.begin() + off + flat_size(t)));
        }
        break;
      }
      case Op::OpVectorShuffle: {
        std::vector<uint32_t> both = val(w[2]);
        const auto& y = val(w[3]);
        both.insert(both.end(), y.begin(), y.end());
        std::vector<uint32_t> r;
        for (size_t k = 4; k < w.size(); ++k) r.push_back(w[k] == 0xFFFFFFFFu ? 0u : both.at(w[k]));
        set(std::move(r));
        break;
      }
      case Op::OpVectorExtractDynamic: set({val(w[2]).at(val(w[3]).at(0))}); break;
      case Op::OpVectorInsertDynamic: {
        std::vector<uint32_t> v = val(w[2]);
        v.at(val(w[4]).at(0)) = val(w[3]).at(0);
        set(std::move(v));
        break;
      }
      case Op::OpCopyObject: set(val(w[2])); break;
      case Op::OpFAdd: componentwise2([](uint32_t x, uint32_t y) { return b(f(x) + f(y)); }); break;
      case Op::OpFSub: componentwise2([](uint32_t x, uint32_t y) { return b(f(x) - f(y)); }); break;
      case Op::OpFMul: componentwise2([](uint32_t x, uint32_t y) { return b(f(x) * f(y)); }); break;
      case Op::OpFDiv: componentwise2([](uint32_t x, uint32_t y) { return b(f(x) / f(y)); }); break;
      case Op::OpFNegate: componentwise1([](uint32_t x) { return b(-f(x)); }); break;
      case Op::OpIAdd: componentwise2([](uint32_t x, uint32_t y) { return x + y; }); break;
      case Op::OpISub: componentwise2([](uint32_t x, uint32_t y) { return x - y; }); break;
      case Op::OpIMul: componentwise2([](uint32_t x, uint32_t y) { return x * y; }); break;
      case Op::OpSNegate: componentwise1([](uint32_t x) { return 0u - x; }); break;
      case Op::OpVectorTimesScalar:
      case Op::OpMatrixTimesScalar: componentwise2([](uint32_t x, uint32_t y) { return b(f(x) * f(y)); }); break;
      case Op::OpFOrdEqual: componentwise2([](uint32_t x, uint32_t y) { return f(x) == f(y) ? 1u : 0u; }); break;
      case Op::OpFOrdNotEqual: componentwise2([](uint32_t x, uint32_t y) { return f(x) != f(y) && !std::isnan(f(x)) && !std::isnan(f(y)) ? 1u : 0u; }); break;
      case Op::OpFOrdLessThan: componentwise2([](uint32_t x, uint32_t y) { return f(x) < f(y) ? 1u : 0u; }); break;
      case Op::OpFOrdGreaterThan: componentwise2([](uint32_t x, uint32_t y) { return f(x) > f(y) ? 1u : 0u; }); break;
      case Op::OpFOrdLessThanEqual: componentwise2([](uint32_t x, uint32_t y) { return f(x) <= f(y) ? 1u : 0u; }); break;
      case Op::OpFOrdGreaterThanEqual: componentwise2([](uint32_t x, uint32_t y) { return f(x) >= f(y) ? 1u : 0u; }); break;
      case Op::OpIEqual: componentwise2([](uint32_t x, uint32_t y) { return x == y ? 1u : 0u; }); break;
      case Op::OpINotEqual: componentwise2([](uint32_t x, uint32_t y) { return x != y ? 1u : 0u; }); break;
      case Op::OpSLessThan: componentwise2([](uint32_t x, uint32_t y) { return s(x) < s(y) ? 1u : 0u; }); break;
      case Op::OpSGreaterThan: componentwise2([](uint32_t x, uint32_t y) { return s(x) > s(y) ? 1u : 0u; }); break;
      case Op::OpSLessThanEqual: componentwise2([](uint32_t x, uint32_t y) { return s(x) <= s(y) ? 1u : 0u; }); break;
      case Op::OpSGreaterThanEqual: componentwise2([](uint32_t x, uint32_t y) { return s(x) >= s(y) ? 1u : 0u; }); break;
      case Op::OpLogicalAnd: componentwise2([](uint32_t x, uint32_t y) { return (x && y) ? 1u : 0u; }); break;
      case Op::OpLogicalOr: componentwise2([](uint32_t x, uint32_t y) { return (x || y) ? 1u : 0u; }); break;
      case Op::OpLogicalNot: componentwise1([](uint32_t x) { return x ? 0u : 1u; }); break;
      case Op::OpAny:
      case Op::OpAll: {
        const auto& x = val(w[2]);
        bool r = opcode == Op::OpAll;
        for (uint32_t c : x) r = opcode == Op::OpAll ? (r && c) : (r || c);
        set({r ? 1u : 0u});
        break;
      }
      case Op::OpSelect: {
        const auto& c = val(w[2]);
        const auto& x = val(w[3]);
        const auto& y = val(w[4]);
        std::vector<uint32_t> r(x.size());
        for (size_t i = 0; i < x.size(); ++i) r[i] = (c.size() == 1 ? c[0] : c[i]) ? x[i] : y[i];
        set(std::move(r));
        break;
      }
      case Op::OpConvertFToS: componentwise1([](uint32_t x) { return static_cast<uint32_t>(static_cast<int32_t>(f(x))); }); break;
      case Op::OpConvertSToF: componentwise1([](uint32_t x) { return b(static_cast<float>(s(x))); }); break;
      case Op::OpConvertFToU: componentwise1([](uint32_t x) { return static_cast<uint32_t>(f(x)); }); break;
      case Op::OpConvertUToF: componentwise1([](uint32_t x) { return b(static_cast<float>(x)); }); break;
      case Op::OpBitcast: set(val(w[2])); break;
      case Op::OpDot: {
        const auto& x = val(w[2]);
        const auto& y = val(w[3]);
        float r = 0;
        for (size_t i = 0; i < x.size(); ++i) r += f(x[i]) * f(y[i]);
        set({b(r)});
        break;
      }
      case Op::OpMatrixTimesVector: {
        const Type* mt = type(result_types_[w[2]]);
        const auto& m = val(w[2]);
        const auto& v = val(w[3]);
        const uint32_t rows = flat_size(mt->elem);
        std::vector<uint32_t> r(rows);
        for (uint32_t row = 0; row < rows; ++row) {
          float acc = 0;
          for (uint32_t c = 0; c < mt->count; ++c) acc += f(m[c * rows + row]) * f(v[c]);
          r[row] = b(acc);
        }
        set(std::move(r));
        break;
      }
      case Op::OpVectorTimesMatrix: {
        const Type* mt = type(result_types_[w[3]]);
        const auto& v = val(w[2]);
        const auto& m = val(w[3]);
        const uint32_t rows = flat_size(mt->elem);
        std::vector<uint32_t> r(mt->count);
        for (uint32_t c = 0; c < mt->count; ++c) {
          float acc = 0;
          for (uint32_t row = 0; row < rows; ++row) acc += f(v[row]) * f(m[c * rows + row]);
          r[c] = b(acc);
        }
        set(std::move(r));
        break;
      }
      case Op::OpExtInst: {
        if (w[2] != glsl_set_) {
          fail("unknown extended instruction set");
          break;
        }
        std::vector<std::vector<uint32_t>> a;
        for (size_t k = 4; k < w.size(); ++k) a.push_back(val(w[k]));
        const size_t n = a.empty() ? 0 : a[0].size();
        auto arg = [&](size_t i, size_t c) { return f(a.at(i).size() == 1 ? a[i][0] : a[i].at(c)); };
        std::vector<uint32_t> r(n);
        const auto inst = static_cast<GLSLstd450>(w[3]);
        switch (inst) {
          case GLSLstd450FAbs: for (size_t c = 0; c < n; ++c) r[c] = b(std::fabs(arg(0, c))); break;
          case GLSLstd450Floor: for (size_t c = 0; c < n; ++c) r[c] = b(std::floor(arg(0, c))); break;
          case GLSLstd450Fract: for (size_t c = 0; c < n; ++c) r[c] = b(arg(0, c) - std::floor(arg(0, c))); break;
          case GLSLstd450Sin: for (size_t c = 0; c < n; ++c) r[c] = b(std::sin(arg(0, c))); break;
          case GLSLstd450Cos: for (size_t c = 0; c < n; ++c) r[c] = b(std::cos(arg(0, c))); break;
          case GLSLstd450FSign:
            for (size_t c = 0; c < n; ++c) r[c] = b(arg(0, c) > 0 ? 1.0f : arg(0, c) < 0 ? -1.0f : 0.0f);
            break;
          case GLSLstd450Cross:
            r[0] = b(arg(0, 1) * arg(1, 2) - arg(0, 2) * arg(1, 1));
            r[1] = b(arg(0, 2) * arg(1, 0) - arg(0, 0) * arg(1, 2));
            r[2] = b(arg(0, 0) * arg(1, 1) - arg(0, 1) * arg(1, 0));
            break;
          case GLSLstd450Sqrt: for (size_t c = 0; c < n; ++c) r[c] = b(std::sqrt(arg(0, c))); break;
          case GLSLstd450InverseSqrt: for (size_t c = 0; c < n; ++c) r[c] = b(1.0f / std::sqrt(arg(0, c))); break;
          case GLSLstd450Exp2: for (size_t c = 0; c < n; ++c) r[c] = b(std::exp2(arg(0, c))); break;
          case GLSLstd450Exp: for (size_t c = 0; c < n; ++c) r[c] = b(std::exp(arg(0, c))); break;
          case GLSLstd450Reflect: {   // I - 2 dot(N, I) N
            float d = 0;
            for (size_t c = 0; c < n; ++c) d += arg(0, c) * arg(1, c);
            for (size_t c = 0; c < n; ++c) r[c] = b(arg(0, c) - 2.0f * d * arg(1, c));
            break;
          }
          case GLSLstd450Log2: for (size_t c = 0; c < n; ++c) r[c] = b(std::log2(arg(0, c))); break;
          case GLSLstd450Pow: for (size_t c = 0; c < n; ++c) r[c] = b(std::pow(arg(0, c), arg(1, c))); break;
          case GLSLstd450FMin: for (size_t c = 0; c < n; ++c) r[c] = b(std::fmin(arg(0, c), arg(1, c))); break;
          case GLSLstd450FMax: for (size_t c = 0; c < n; ++c) r[c] = b(std::fmax(arg(0, c), arg(1, c))); break;
          case GLSLstd450FClamp:
            for (size_t c = 0; c < n; ++c) r[c] = b(std::fmin(std::fmax(arg(0, c), arg(1, c)), arg(2, c)));
            break;
          case GLSLstd450FMix:
            for (size_t c = 0; c < n; ++c) r[c] = b(arg(0, c) + (arg(1, c) - arg(0, c)) * arg(2, c));
            break;
          case GLSLstd450Length: {
            float acc = 0;
            for (size_t c = 0; c < n; ++c) acc += arg(0, c) * arg(0, c);
            r = {b(std::sqrt(acc))};
            break;
          }
          case GLSLstd450Normalize: {
            float acc = 0;
            for (size_t c = 0; c < n; ++c) acc += arg(0, c) * arg(0, c);
            for (size_t c = 0; c < n; ++c) r[c] = b(arg(0, c) / std::sqrt(acc));
            break;
          }
          default: fail("unsupported GLSL.std.450 instruction " + std::to_string(w[3])); break;
        }
        set(std::move(r));
        break;
      }
      case Op::OpBranch: pc = labels_.at(w[0]); break;
      case Op::OpBranchConditional: pc = labels_.at(val(w[0]).at(0) ? w[1] : w[2]); break;
      case Op::OpReturn:
        if (!call_stack_.empty()) {
          pc = call_stack_.back();
          call_stack_.pop_back();
          break;
        }
        return ok();
      case Op::OpFunctionCall: {
        // Functions without parameters (the D3D9 translator's subroutines).
        auto fn = function_begins_.find(w[2]);
        if (fn == function_begins_.end() || w.size() > 3) {
          fail("unsupported function call");
          break;
        }
        if (call_stack_.size() > 64) {
          fail("call stack too deep");
          break;
        }
        call_stack_.push_back(pc);
        pc = fn->second;
        break;
      }
      case Op::OpFunctionParameter: break;
      case Op::OpShiftRightLogical: componentwise2([](uint32_t x, uint32_t y) { return y < 32 ? x >> y : 0u; }); break;
      case Op::OpShiftLeftLogical: componentwise2([](uint32_t x, uint32_t y) { return y < 32 ? x << y : 0u; }); break;
      case Op::OpBitwiseAnd: componentwise2([](uint32_t x, uint32_t y) { return x & y; }); break;
      case Op::OpBitwiseOr: componentwise2([](uint32_t x, uint32_t y) { return x | y; }); break;
      case Op::OpULessThan: componentwise2([](uint32_t x, uint32_t y) { return x < y ? 1u : 0u; }); break;
      case Op::OpFUnordNotEqual: componentwise2([](uint32_t x, uint32_t y) { return !(f(x) == f(y)) ? 1u : 0u; }); break;
      case Op::OpKill:
        call_stack_.clear();
        killed_ = true;
        return ok();
      case Op::OpUnreachable: fail("reached OpUnreachable"); return false;
      default: fail("unsupported instruction, opcode " + std::to_string(in.op)); return false;
    }
  }
  fail("step limit reached");
  return false;
}

bool SpirvInterpreter::find_builtin(uint32_t builtin, uint32_t& var, uint32_t& offset) const {
  for (const auto& [v, sc] : var_storage_class_) {
    if (sc != static_cast<uint32_t>(spv::StorageClass::Output)) continue;
    auto bi = builtins_.find(v);
    if (bi != builtins_.end() && bi->second == builtin) {
      var = v;
      offset = 0;
      return true;
    }
    const uint32_t pointee = pointers_.at(v).type;
    const Type* t = type(pointee);
    if (!t || t->op != op_(Op::OpTypeStruct)) continue;
    for (uint32_t m = 0; m < t->members.size(); ++m) {
      auto mb = member_builtins_.find({pointee, m});
      if (mb != member_builtins_.end() && mb->second == builtin) {
        var = v;
        offset = member_offset(pointee, m);
        return true;
      }
    }
  }
  return false;
}

std::array<float, 4> SpirvInterpreter::output(uint32_t location) const {
  std::array<float, 4> r{};
  for (const auto& [v, sc] : var_storage_class_) {
    if (sc != static_cast<uint32_t>(spv::StorageClass::Output)) continue;
    auto loc = locations_.find(v);
    if (loc == locations_.end() || loc->second != location) continue;
    const auto& st = storage_.at(v);
    for (size_t i = 0; i < 4 && i < st.size(); ++i) r[i] = f(st[i]);
  }
  return r;
}

std::array<float, 4> SpirvInterpreter::position() const {
  std::array<float, 4> r{};
  uint32_t var = 0, off = 0;
  if (!find_builtin(static_cast<uint32_t>(spv::BuiltIn::Position), var, off)) return r;
  const auto& st = storage_.at(var);
  for (size_t i = 0; i < 4; ++i) r[i] = f(st.at(off + i));
  return r;
}

float SpirvInterpreter::point_size() const {
  uint32_t var = 0, off = 0;
  if (!find_builtin(static_cast<uint32_t>(spv::BuiltIn::PointSize), var, off))
    return std::numeric_limits<float>::quiet_NaN();
  return f(storage_.at(var).at(off));
}

}  // namespace novem::test
