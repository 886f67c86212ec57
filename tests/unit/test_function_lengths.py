#!/usr/bin/env python3
"""Unit tests of tools/function_lengths.py on small C++/CUDA snippets (ctest:
unit_function_lengths).

  python3 tests/unit/test_function_lengths.py
"""
import contextlib
import io
import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import function_lengths as fl  # noqa: E402


def scan(src):
    """{name: lines} of the functions in src (a dedented snippet)."""
    return {f.name: f.lines for f in fl.scan_source(textwrap.dedent(src))}


class Bodies(unittest.TestCase):
    def test_free_function_counts_brace_to_brace(self):
        fns = fl.scan_source("int f(int a,\n      int b) {\n  return a + b;\n}\n")
        self.assertEqual([(f.name, f.first, f.last, f.lines) for f in fns], [("f", 2, 4, 3)])

    def test_one_line_functions(self):
        self.assertEqual(scan("void f() {}\nint g() { return 1; }\n"), {"f": 1, "g": 1})

    def test_declarations_are_not_functions(self):
        self.assertEqual(scan("void f();\nint g(int) noexcept;\nstruct A { void h(); };\n"), {})

    def test_control_flow_and_lambdas_count_toward_the_function(self):
        self.assertEqual(scan("""
            void f(int n) {
              for (int i = 0; i < n; ++i) {
                if (i) {
                  auto g = [&](int k) {
                    return k;
                  };
                }
              }
              switch (n) { case 1: { break; } }
              try { } catch (...) { }
            }
            void after() {}
            """), {"f": 11, "after": 1})


class Scopes(unittest.TestCase):
    def test_namespace_and_class_bodies_are_scopes(self):
        self.assertEqual(scan("""
            namespace bolt {
            namespace {
            struct A : public Base<int> {
              int x{0};
              void f() const {
                x;
              }
              struct Inner final {
                int g() { return 1; }
              };
            };
            }  // namespace
            extern "C" {
            void c_api() {}
            }
            }  // namespace bolt
            """), {"A::f": 3, "A::Inner::g": 1, "c_api": 1})

    def test_out_of_class_and_template_definitions(self):
        self.assertEqual(scan("""
            template <typename T, int N = 3>
            T twice(T x) {
              return 2 * x;
            }
            void Foo::bar() const {
            }
            template <class Real>
            template <int N>
            struct Tables<Real>::Streamer {
              Real value(int c) const { return c; }
            };
            Foo::~Foo() {}
            """), {"twice": 3, "Foo::bar": 2, "Tables::Streamer::value": 1, "Foo::~Foo": 1})

    def test_enums_and_initialisers_are_not_functions(self):
        self.assertEqual(scan("""
            enum class Kind : int { a, b };
            const int table[] = {1, 2, 3};
            std::vector<int> v{f(1), 2};
            struct S { std::function<void(int)> cb{nullptr}; decltype(g()) y{}; };
            """), {})


class Signatures(unittest.TestCase):
    def test_operators(self):
        self.assertEqual(scan("""
            struct Kernel {
              BOLT_HOST_DEVICE void operator()(const Team& team, long i) const {
                team;
              }
              bool operator==(const Kernel& o) const { return true; }
              explicit operator bool() const { return true; }
              Real& operator[](int i) { return x[i]; }
            };
            Sums& Sums::operator+=(const Sums& o) {
              return *this;
            }
            """), {"Kernel::operator()": 3, "Kernel::operator==": 1, "Kernel::operator bool": 1,
                   "Kernel::operator[]": 1, "Sums::operator+=": 3})

    def test_constructor_initialiser_lists_with_braces(self):
        self.assertEqual(scan("""
            class Engine {
             public:
              Engine(int n, Options o) : n_{n}, opts_(std::move(o)), grid_{make(n), {1, 2}} {
                start();
              }
             private:
              int n_{0};
            };
            """), {"Engine::Engine": 3})
        fns = fl.scan_source("Engine::Engine(int n)\n    : n_{n} {\n}\n")
        self.assertEqual([(f.first, f.lines) for f in fns], [(2, 2)])

    def test_qualifiers_trailing_return_and_attributes(self):
        self.assertEqual(scan("""
            [[nodiscard]] auto f(int x) -> decltype(x) { return x; }
            void g() noexcept(noexcept(h())) {}
            void m() const& {}
            template <typename T> requires std::integral<T> T r(T x) { return x; }
            __global__ void __launch_bounds__(256) kernel(const double* __restrict__ f) {
            }
            decltype(auto) d() { return 1; }
            """), {"f": 1, "g": 1, "m": 1, "r": 1, "kernel": 2, "d": 1})

    def test_default_argument_with_braces(self):
        self.assertEqual(scan("void f(Options o = Options{}, int n = {}) {\n}\n"), {"f": 2})

    def test_macro_defined_functions_keep_their_arguments(self):
        self.assertEqual(scan("TEST(Riemann, SodStar) {\n  EXPECT_TRUE(1);\n}\n"),
                         {"TEST(Riemann, SodStar)": 3})

    def test_lambda_at_namespace_scope_is_named_after_its_variable(self):
        self.assertEqual(scan("const auto table = [] {\n  return 1;\n}();\n"), {"table": 3})


class Stripping(unittest.TestCase):
    def test_braces_in_comments_literals_and_directives_are_ignored(self):
        self.assertEqual(scan(r'''
            // void commented() {
            /* } { */
            #define OPEN {
            #define MULTI(x) \
              { x }
            void f() {
              const char* s = "}\"{";
              char c = '{', d = '\'';
              long big = 1'000'000;
              auto raw = R"x(} ")x";
              auto r2 = u8R"(
            {)";
            }
            void g() {}
            '''), {"f": 8, "g": 1})

    def test_line_numbers_survive_stripping(self):
        src = "/* a\n b\n c */\nvoid f() {\n}\n"
        self.assertEqual(fl.strip_source(src).count("\n"), src.count("\n"))
        self.assertEqual([f.first for f in fl.scan_source(src)], [4])


class CommandLine(unittest.TestCase):
    def run_main(self, args, files):
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in files.items():
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(text)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = fl.main(args + [tmp])
            return status, out.getvalue().replace(tmp + os.sep, "")

    @staticmethod
    def body(name, lines):
        return f"void {name}() {{\n" + "  x();\n" * (lines - 2) + "}\n"

    def test_max_and_limit(self):
        files = {"a.cpp": self.body("run_simulation", 90) + self.body("short_one", 10),
                 "b.cu": "namespace n {\n" + self.body("long_one", 151) + "}\n",
                 "c.txt": self.body("ignored", 500)}
        status, out = self.run_main(["--max", "150", "--limit", "run_simulation=80"], files)
        self.assertEqual(status, 1)
        self.assertEqual(out.splitlines(), [
            "b.cu:2: long_one: 151 lines (limit 150) OVER",
            "a.cpp:1: run_simulation: 90 lines (limit 80) OVER"])
        status, out = self.run_main(["--max", "151", "--limit", "run_simulation=90"], files)
        self.assertEqual((status, out), (0, ""))

    def test_limit_matches_the_end_of_a_qualified_name(self):
        files = {"a.hpp": "struct Driver {\n" + self.body("run_simulation", 20) + "};\n"}
        status, out = self.run_main(["--limit", "run_simulation=10"], files)
        self.assertEqual(status, 1)
        self.assertIn("Driver::run_simulation: 20 lines (limit 10) OVER", out)

    def test_all_lists_every_function(self):
        status, out = self.run_main(["--all"], {"a.cpp": self.body("f", 3) + self.body("g", 5)})
        self.assertEqual(status, 0)
        self.assertEqual(out.splitlines(), ["a.cpp:4: g: 5 lines (limit 150)",
                                            "a.cpp:1: f: 3 lines (limit 150)"])

    def test_bad_limit_is_a_usage_error(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as e:
            fl.main(["--limit", "run_simulation", "."])
        self.assertEqual(e.exception.code, 2)

    def test_missing_path_is_a_usage_error(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as e:
            fl.main(["no/such/folder"])
        self.assertEqual(e.exception.code, 2)


if __name__ == "__main__":
    unittest.main()
