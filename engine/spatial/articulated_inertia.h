// Articulated-body inertias (Featherstone RBDA §7.2–7.3) kept in symmetric
// block form I^A = [A B; Bᵀ C] with A = Aᵀ and C = Cᵀ: 6 + 9 + 6 = 21 numbers
// instead of a dense 6×6, and every update of ABA's backward pass (RBDA
// Table 7.1: I^a = I^A − U D⁻¹ Uᵀ, I^A_λ += Xᵀ I^a X) computes only those.
#ifndef MOREAU_ENGINE_SPATIAL_ARTICULATED_INERTIA_H_
#define MOREAU_ENGINE_SPATIAL_ARTICULATED_INERTIA_H_

#include <cmath>

#include "engine/spatial/axis_transform.h"
#include "engine/spatial/inertia.h"

namespace moreau::spatial {

struct ArticulatedInertia {
  double A[6] = {};  // angular block, packed upper triangle (Sym, inertia.h)
  double B[9] = {};  // coupling block, row-major: B(a, b) = B[3a + b]
  double C[6] = {};  // linear block, packed upper triangle (Sym)

  double a(int r, int c) const { return A[Sym(r, c)]; }
  double b(int r, int c) const { return B[3 * r + c]; }
  double c(int r, int c) const { return C[Sym(r, c)]; }

  // I^A = I (RBDA Table 7.1, pass 1): [Ī h×; h×ᵀ m1].
  void SetRigid(const Inertia& I) {
    A[0] = I.Ibar(0, 0), A[1] = I.Ibar(0, 1), A[2] = I.Ibar(0, 2);
    A[3] = I.Ibar(1, 1), A[4] = I.Ibar(1, 2), A[5] = I.Ibar(2, 2);
    const Vec3& h = I.h;
    B[0] = 0.0, B[1] = -h.z(), B[2] = h.y();
    B[3] = h.z(), B[4] = 0.0, B[5] = -h.x();
    B[6] = -h.y(), B[7] = h.x(), B[8] = 0.0;
    C[0] = I.mass, C[1] = 0.0, C[2] = 0.0;
    C[3] = I.mass, C[4] = 0.0, C[5] = I.mass;
  }

  // I^A m: n = A ω + B v, f = Bᵀ ω + C v.
  Force operator*(const Motion& m) const {
    const Vec3& w = m.angular;
    const Vec3& v = m.linear;
    Force f;
    for (int r = 0; r < 3; ++r) {
      f.angular[r] = a(r, 0) * w[0] + a(r, 1) * w[1] + a(r, 2) * w[2] + b(r, 0) * v[0] +
                     b(r, 1) * v[1] + b(r, 2) * v[2];
      f.linear[r] = b(0, r) * w[0] + b(1, r) * w[1] + b(2, r) * w[2] + c(r, 0) * v[0] +
                    c(r, 1) * v[1] + c(r, 2) * v[2];
    }
    return f;
  }

  // I^A ← I^A − U Uᵀ / D (RBDA eq. 7.40's I^a), U = [U_ang; U_lin].
  void SubtractOuter(const Vec6& U, double Dinv) {
    for (int r = 0; r < 3; ++r) {
      const double ur = U[r] * Dinv, lr = U[r + 3] * Dinv;
      for (int c = r; c < 3; ++c) {
        A[Sym(r, c)] -= ur * U[c];
        C[Sym(r, c)] -= lr * U[c + 3];
      }
      for (int c = 0; c < 3; ++c) B[3 * r + c] -= ur * U[c + 3];
    }
  }

  Mat6 Matrix() const {
    Mat6 M;
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        M(r, c) = a(r, c);
        M(r, c + 3) = b(r, c);
        M(c + 3, r) = b(r, c);
        M(r + 3, c + 3) = this->c(r, c);
      }
    }
    return M;
  }
  // From a symmetric 6×6 (its upper triangle is read).
  static ArticulatedInertia FromMatrix(const Mat6& M) {
    ArticulatedInertia I;
    for (int r = 0; r < 3; ++r) {
      for (int c = r; c < 3; ++c) {
        I.A[Sym(r, c)] = M(r, c);
        I.C[Sym(r, c)] = M(r + 3, c + 3);
      }
      for (int c = 0; c < 3; ++c) I.B[3 * r + c] = M(r, c + 3);
    }
    return I;
  }
};

// I m for a motion m with m_ang[K] = m_lin[K] = 0 (a velocity product
// v × w e_K): only the columns J, L and 3 + J, 3 + L of I.
template <int K>
inline Force MultiplyPlane(const ArticulatedInertia& I, const Motion& m) {
  constexpr int J = axis::kJ<K>, L = axis::kL<K>;
  const Vec3& w = m.angular;
  const Vec3& v = m.linear;
  Force f;
  for (int r = 0; r < 3; ++r) {
    f.angular[r] = I.a(r, J) * w[J] + I.a(r, L) * w[L] + I.b(r, J) * v[J] + I.b(r, L) * v[L];
    f.linear[r] = I.b(J, r) * w[J] + I.b(L, r) * w[L] + I.c(r, J) * v[J] + I.c(r, L) * v[L];
  }
  return f;
}

// parent += Tᵀ [A B; Bᵀ C] T for T = xlt(r) = [1 0; −r× 1] (RBDA eq. 7.43
// with E = 1): with B⁺ = B + r×C,
//   Tᵀ I T = [A + r×Bᵀ − B⁺ r×, B⁺; B⁺ᵀ, C],
// and (r×Bᵀ)(a, b) = (r × B_b)_a, (B⁺ r×)(a, b) = −(r × B⁺_a)_b for the rows
// B_b, B⁺_a. With W and D⁻¹ given, also parent −= W D⁻¹ Wᵀ (the rank-one
// term of AddArticulatedAboutAxis) in the same sweep over parent.
inline void AddTranslated(const Vec3& r, const ArticulatedInertia& I, ArticulatedInertia& parent,
                          const Force& W = Force::Zero(), double Dinv = 0.0) {
  // (r × x)_a = r_{a+1} x_{a+2} − r_{a+2} x_{a+1}: two products per entry,
  // and only the entries used (B⁺: 9, A⁺: the upper triangle).
  auto cross = [&r](int a, double x0, double x1, double x2) {
    const double x[3] = {x0, x1, x2};
    return r[(a + 1) % 3] * x[(a + 2) % 3] - r[(a + 2) % 3] * x[(a + 1) % 3];
  };
  double Bp[9];
#pragma GCC unroll 3
  for (int col = 0; col < 3; ++col) {
#pragma GCC unroll 3
    for (int row = 0; row < 3; ++row) {
      // B⁺(row, col) = B(row, col) + (r × C(:, col))_row.
      Bp[3 * row + col] = I.B[3 * row + col] + cross(row, I.c(0, col), I.c(1, col), I.c(2, col));
    }
  }
#pragma GCC unroll 3
  for (int row = 0; row < 3; ++row) {
    const double wr = W.angular[row] * Dinv, lr = W.linear[row] * Dinv;
#pragma GCC unroll 3
    for (int col = row; col < 3; ++col) {
      // (r×Bᵀ)(row, col) = (r × B_col)_row, (B⁺ r×)(row, col) = −(r × B⁺_row)_col
      // for the rows B_col of B and B⁺_row of B⁺.
      const double rB = cross(row, I.B[3 * col], I.B[3 * col + 1], I.B[3 * col + 2]);
      const double rBp = cross(col, Bp[3 * row], Bp[3 * row + 1], Bp[3 * row + 2]);
      parent.A[Sym(row, col)] += I.A[Sym(row, col)] + rB + rBp - wr * W.angular[col];
      parent.C[Sym(row, col)] += I.C[Sym(row, col)] - lr * W.linear[col];
    }
#pragma GCC unroll 3
    for (int col = 0; col < 3; ++col)
      parent.B[3 * row + col] += Bp[3 * row + col] - wr * W.linear[col];
  }
}

// parent += Xᵀ I X for a general X = (E, r) = rot(E) xlt(r): rotate each block
// (A' = EᵀAE, B' = EᵀBE, C' = EᵀCE), then AddTranslated.
inline void AddTransformed(const Transform& X, const ArticulatedInertia& I,
                           ArticulatedInertia& parent) {
  const Mat6 M = I.Matrix();
  const Mat3& E = X.E;
  Mat6 R;
  R.topLeftCorner<3, 3>().noalias() = E.transpose() * M.topLeftCorner<3, 3>() * E;
  R.topRightCorner<3, 3>().noalias() = E.transpose() * M.topRightCorner<3, 3>() * E;
  R.bottomRightCorner<3, 3>().noalias() = E.transpose() * M.bottomRightCorner<3, 3>() * E;
  AddTranslated(X.r, ArticulatedInertia::FromMatrix(R), parent);
}

// I ← X_Rᵀ I X_R for X_R = diag(E, E), E the rotation about e_K of
// axis_transform.h. For a symmetric block M (columns of E: e_K,
// c e_J − s e_L, s e_J + c e_L):
//   M'_KK = M_KK, M'_KJ = c M_KJ − s M_KL, M'_KL = s M_KJ + c M_KL,
//   M'_JJ = c² M_JJ − 2cs M_JL + s² M_LL, M'_LL = s² M_JJ + 2cs M_JL + c² M_LL,
//   M'_JL = cs (M_JJ − M_LL) + (c² − s²) M_JL;
// B: its columns, then its rows, rotated in the (J, L) plane.
template <int K>
inline void RotateAboutAxis(double c, double s, const ArticulatedInertia& I,
                            ArticulatedInertia& out) {
  constexpr int J = axis::kJ<K>, L = axis::kL<K>;
  const double cc = c * c, ss = s * s, cs = c * s;
  for (int m = 0; m < 2; ++m) {
    const double* M = m == 0 ? I.A : I.C;
    double* R = m == 0 ? out.A : out.C;
    const double kj = M[Sym(K, J)], kl = M[Sym(K, L)];
    const double jj = M[Sym(J, J)], ll = M[Sym(L, L)], jl = M[Sym(J, L)];
    R[Sym(K, K)] = M[Sym(K, K)];
    R[Sym(K, J)] = c * kj - s * kl;
    R[Sym(K, L)] = s * kj + c * kl;
    R[Sym(J, J)] = cc * jj - 2.0 * cs * jl + ss * ll;
    R[Sym(L, L)] = ss * jj + 2.0 * cs * jl + cc * ll;
    R[Sym(J, L)] = cs * (jj - ll) + (cc - ss) * jl;
  }
  // B' = Eᵀ B E: row K and column K turn as vectors, the (J, L) block as
  // Eᵀ B E in the plane.
  const double* B = I.B;
  double* R = out.B;
  R[3 * K + K] = B[3 * K + K];
  R[3 * K + J] = c * B[3 * K + J] - s * B[3 * K + L];
  R[3 * K + L] = s * B[3 * K + J] + c * B[3 * K + L];
  R[3 * J + K] = c * B[3 * J + K] - s * B[3 * L + K];
  R[3 * L + K] = s * B[3 * J + K] + c * B[3 * L + K];
  // (B E) in rows J, L, then Eᵀ (B E).
  const double tJJ = c * B[3 * J + J] - s * B[3 * J + L], tJL = s * B[3 * J + J] + c * B[3 * J + L];
  const double tLJ = c * B[3 * L + J] - s * B[3 * L + L], tLL = s * B[3 * L + J] + c * B[3 * L + L];
  R[3 * J + J] = c * tJJ - s * tLJ;
  R[3 * L + J] = s * tJJ + c * tLJ;
  R[3 * J + L] = c * tJL - s * tLL;
  R[3 * L + L] = s * tJL + c * tLL;
}

// In place.
template <int K>
inline void RotateAboutAxis(double c, double s, ArticulatedInertia& I) {
  const ArticulatedInertia copy = I;
  RotateAboutAxis<K>(c, s, copy, I);
}

// parent += Xᵀ I X − W D⁻¹ Wᵀ for X = rot(E) xlt(r), E the rotation about
// e_K of axis_transform.h and W = Xᵀ U: RBDA Table 7.1's I^A_λ += Xᵀ I^a X
// for a revolute joint about e_K, with I^a = I − U D⁻¹ Uᵀ. Rotation on a
// local copy, then AddTranslated with the rank-one term.
template <int K>
inline void AddArticulatedAboutAxis(const ArticulatedInertia& I, const Force& W, double Dinv,
                                    double c, double s, const Vec3& r, ArticulatedInertia& parent) {
  ArticulatedInertia Ir;
  RotateAboutAxis<K>(c, s, I, Ir);
  AddTranslated(r, Ir, parent, W, Dinv);
}

// Xᵀ I X for a rigid-body inertia I = (m, h, Ī) (packed, inertia.h) and
// X = rot(E) xlt(r), E the rotation about e_K of axis_transform.h (RBDA
// Table 2.8, Inertia::ExpressedInParent): the result is rigid, (m, h', Ī')
// with Ī_E = EᵀĪE turning only the (J, L) plane (RotateAboutAxis's
// formulas), h_E = Eᵀh, h' = h_E + m r and
//   Ī' = Ī_E − h_E rᵀ − r h'ᵀ + (r·h_E + h'·r) 1,
// whose rank-two part h_E rᵀ + r h_Eᵀ + m r rᵀ is symmetric: 6 entries.
// Writes h' to h_out and Ī' (packed) to I_out.
template <int K>
inline void RigidInParentAboutAxis(double c, double s, const Vec3& r, const PackedInertia& I,
                                   double h_out[3], double I_out[6]) {
  constexpr int J = axis::kJ<K>, L = axis::kL<K>;
  const double* Ib = I.I;
  double IE[6];
  const double cc = c * c, ss = s * s, cs = c * s;
  const double kj = Ib[Sym(K, J)], kl = Ib[Sym(K, L)];
  const double jj = Ib[Sym(J, J)], ll = Ib[Sym(L, L)], jl = Ib[Sym(J, L)];
  IE[Sym(K, K)] = Ib[Sym(K, K)];
  IE[Sym(K, J)] = c * kj - s * kl;
  IE[Sym(K, L)] = s * kj + c * kl;
  IE[Sym(J, J)] = cc * jj - 2.0 * cs * jl + ss * ll;
  IE[Sym(L, L)] = ss * jj + 2.0 * cs * jl + cc * ll;
  IE[Sym(J, L)] = cs * (jj - ll) + (cc - ss) * jl;
  double hE[3];
  hE[K] = I.h[K];
  hE[J] = c * I.h[J] - s * I.h[L];
  hE[L] = c * I.h[L] + s * I.h[J];
  for (int a = 0; a < 3; ++a) h_out[a] = hE[a] + I.m * r[a];
  const double d =
      r[0] * (hE[0] + h_out[0]) + r[1] * (hE[1] + h_out[1]) + r[2] * (hE[2] + h_out[2]);
  for (int a = 0; a < 3; ++a) {
    for (int b = a; b < 3; ++b) {
      I_out[Sym(a, b)] = IE[Sym(a, b)] - hE[a] * r[b] - r[a] * h_out[b] + (a == b ? d : 0.0);
    }
  }
}

// parent += Xᵀ I X − W D⁻¹ Wᵀ (AddArticulatedAboutAxis) for a rigid I: the
// articulated inertia of a body without children is its rigid inertia
// (RBDA Table 7.1, pass 1), and Xᵀ I X stays rigid (RigidInParentAboutAxis):
// A += Ī', B += h'×, C += m 1, each with its part of the rank-one term.
template <int K>
inline void AddRigidArticulatedAboutAxis(const PackedInertia& I, const Force& W, double Dinv,
                                         double c, double s, const Vec3& r,
                                         ArticulatedInertia& parent) {
  double hp[3], Ip[6];
  RigidInParentAboutAxis<K>(c, s, r, I, hp, Ip);
  const double hx[9] = {0.0, -hp[2], hp[1], hp[2], 0.0, -hp[0], -hp[1], hp[0], 0.0};  // h'×
  for (int row = 0; row < 3; ++row) {
    const double wr = W.angular[row] * Dinv, lr = W.linear[row] * Dinv;
    for (int col = row; col < 3; ++col) {
      parent.A[Sym(row, col)] += Ip[Sym(row, col)] - wr * W.angular[col];
      parent.C[Sym(row, col)] += (row == col ? I.m : 0.0) - lr * W.linear[col];
    }
    for (int col = 0; col < 3; ++col)
      parent.B[3 * row + col] += hx[3 * row + col] - wr * W.linear[col];
  }
}

// x = (I^A)⁻¹ b for a positive definite I^A by I^A = L D Lᵀ (L unit lower
// triangular; the floating base's 6×6 system of RBDA §9.3): no square roots,
// one division per column, fully unrolled at size 6 (GCC does not unroll the
// triangular loops by itself).
inline Vec6 Solve(const ArticulatedInertia& I, const Vec6& b) {
  // L overwrites the strict lower triangle of I^A = [A B; Bᵀ C].
  double L[6][6];
#pragma GCC unroll 6
  for (int i = 0; i < 3; ++i) {
#pragma GCC unroll 6
    for (int j = 0; j <= i; ++j) L[i][j] = I.a(i, j);
#pragma GCC unroll 6
    for (int j = 0; j < 3; ++j) L[i + 3][j] = I.b(j, i);
#pragma GCC unroll 6
    for (int j = 0; j <= i; ++j) L[i + 3][j + 3] = I.c(i, j);
  }
  double d[6], dinv[6];
#pragma GCC unroll 6
  for (int j = 0; j < 6; ++j) {
    double dj = L[j][j];
#pragma GCC unroll 6
    for (int k = 0; k < j; ++k) dj -= L[j][k] * L[j][k] * d[k];
    d[j] = dj;
    dinv[j] = 1.0 / dj;
#pragma GCC unroll 6
    for (int i = j + 1; i < 6; ++i) {
      double x = L[i][j];
#pragma GCC unroll 6
      for (int k = 0; k < j; ++k) x -= L[i][k] * L[j][k] * d[k];
      L[i][j] = x * dinv[j];
    }
  }
  Vec6 y;
#pragma GCC unroll 6
  for (int i = 0; i < 6; ++i) {  // L y = b
    double x = b[i];
#pragma GCC unroll 6
    for (int k = 0; k < i; ++k) x -= L[i][k] * y[k];
    y[i] = x;
  }
#pragma GCC unroll 6
  for (int i = 5; i >= 0; --i) {  // D Lᵀ x = y
    double x = y[i] * dinv[i];
#pragma GCC unroll 6
    for (int k = i + 1; k < 6; ++k) x -= L[k][i] * y[k];
    y[i] = x;
  }
  return y;
}

}  // namespace moreau::spatial

#endif  // MOREAU_ENGINE_SPATIAL_ARTICULATED_INERTIA_H_
