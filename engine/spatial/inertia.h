// Spatial inertias (Featherstone, RBDA §2.13 and Table 2.8).
//
// A rigid-body inertia about a frame's origin is kept as (m, h, Ī): mass m,
// first moment h = m c (c: centre of mass in the frame) and the rotational
// inertia Ī about the origin, Ī = I_c + m c×c×ᵀ. As a matrix
//   I = [Ī  h×; h×ᵀ  m1].
// Articulated-body inertias (ABA) are general symmetric 6×6 matrices, kept in
// block form by ArticulatedInertia (articulated_inertia.h); TransformArticulated
// below is the dense reference its tests compare against.
#ifndef MOREAU_ENGINE_SPATIAL_INERTIA_H_
#define MOREAU_ENGINE_SPATIAL_INERTIA_H_

#include "engine/spatial/motion.h"
#include "engine/spatial/transform.h"

namespace moreau::spatial {

struct Inertia {
  double mass = 0.0;
  Vec3 h = Vec3::Zero();     // first moment m c
  Mat3 Ibar = Mat3::Zero();  // rotational inertia about the frame origin

  Inertia() = default;
  Inertia(double m, const Vec3& first_moment, const Mat3& inertia_about_origin)
      : mass(m), h(first_moment), Ibar(inertia_about_origin) {}
  static Inertia Zero() { return Inertia(); }
  // From mass, centre of mass c and rotational inertia I_c about the centre of
  // mass (parallel-axis theorem: Ī = I_c − m c× c×).
  static Inertia FromMassComInertia(double m, const Vec3& com, const Mat3& inertia_com) {
    const Mat3 cx = Skew(com);
    return Inertia(m, m * com, inertia_com - m * cx * cx);
  }

  Vec3 CenterOfMass() const { return mass > 0.0 ? Vec3(h / mass) : Vec3::Zero(); }
  // Rotational inertia about the centre of mass: I_c = Ī + m c× c× = Ī + h× h× / m.
  Mat3 InertiaAboutCom() const {
    if (mass <= 0.0) return Ibar;
    const Mat3 hx = Skew(h);
    return Ibar + hx * hx / mass;
  }

  // I m: n = Ī ω + h × v, f = m v − h × ω.
  Force operator*(const Motion& m) const {
    return {Ibar * m.angular + h.cross(m.linear), mass * m.linear - h.cross(m.angular)};
  }
  Inertia operator+(const Inertia& o) const { return {mass + o.mass, h + o.h, Ibar + o.Ibar}; }
  Inertia& operator+=(const Inertia& o) {
    mass += o.mass;
    h += o.h;
    Ibar += o.Ibar;
    return *this;
  }

  // Expresses an inertia given in frame B in frame A, where x = B_X_A:
  // I_A = Xᵀ I_B X (RBDA Table 2.8): m' = m, h' = Eᵀh + m r,
  // Ī' = EᵀĪE − r×(Eᵀh)× − h'× r×, with the skew products expanded by
  // a× b× = b aᵀ − (a·b) 1.
  Inertia ExpressedInParent(const Transform& x) const {
    const Vec3 h_rot = x.E.transpose() * h;
    const Vec3 h_new = h_rot + mass * x.r;
    Mat3 I_new = x.E.transpose() * (Ibar * x.E);
    I_new.noalias() -= h_rot * x.r.transpose();
    I_new.noalias() -= x.r * h_new.transpose();
    I_new.diagonal().array() += x.r.dot(h_rot) + h_new.dot(x.r);
    return {mass, h_new, I_new};
  }

  Mat6 Matrix() const {
    Mat6 I;
    WriteMatrix(I);
    return I;
  }
  // Writes the 6×6 matrix in place (no temporary in hot loops).
  void WriteMatrix(Mat6& I) const {
    I.topLeftCorner<3, 3>() = Ibar;
    // h× (top right) and its transpose (bottom left).
    I(0, 3) = 0.0, I(0, 4) = -h.z(), I(0, 5) = h.y();
    I(1, 3) = h.z(), I(1, 4) = 0.0, I(1, 5) = -h.x();
    I(2, 3) = -h.y(), I(2, 4) = h.x(), I(2, 5) = 0.0;
    I(3, 0) = 0.0, I(4, 0) = -h.z(), I(5, 0) = h.y();
    I(3, 1) = h.z(), I(4, 1) = 0.0, I(5, 1) = -h.x();
    I(3, 2) = -h.y(), I(4, 2) = h.x(), I(5, 2) = 0.0;
    I.bottomRightCorner<3, 3>().setZero();
    I(3, 3) = I(4, 4) = I(5, 5) = mass;
  }
};

// Position of the (a, b) entry of a symmetric 3×3 matrix in its packed upper
// triangle (00, 01, 02, 11, 12, 22).
constexpr int Sym(int a, int b) {
  return a <= b ? a * 3 - a * (a - 1) / 2 + (b - a) : b * 3 - b * (b - 1) / 2 + (a - b);
}

// A rigid-body inertia (m, h, Ī) with the symmetric Ī kept as its 6 distinct
// entries (Sym): 10 numbers, the composite inertias I^c of CRBA (RBDA
// Table 6.2), whose updates then compute each entry of Ī once.
struct PackedInertia {
  double m = 0.0;
  double h[3] = {};
  double I[6] = {};  // Ī, packed upper triangle (Sym)

  double Ibar(int a, int b) const { return I[Sym(a, b)]; }
  void Set(const Inertia& in) {
    m = in.mass;
    for (int a = 0; a < 3; ++a) {
      h[a] = in.h[a];
      for (int b = a; b < 3; ++b) I[Sym(a, b)] = in.Ibar(a, b);
    }
  }
  Inertia Unpacked() const {
    Mat3 Ib;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) Ib(a, b) = I[Sym(a, b)];
    return {m, Vec3(h[0], h[1], h[2]), Ib};
  }
  // Adds an inertia whose Ī is symmetric (its upper triangle is read).
  PackedInertia& operator+=(const Inertia& o) {
    m += o.mass;
    for (int a = 0; a < 3; ++a) {
      h[a] += o.h[a];
      for (int b = a; b < 3; ++b) I[Sym(a, b)] += o.Ibar(a, b);
    }
    return *this;
  }
};

// Xᵀ IA X for a symmetric 6×6 articulated inertia IA given in frame B, where
// x = B_X_A. Block form with IA = [A B; Bᵀ C] rotated to A's axes
// (A' = EᵀAE, …) and T = [1 0; −r× 1]:
//   Xᵀ IA X = [A' + r×B'ᵀ − (B' + r×C') r×,  B' + r×C';  (…)ᵀ,  C'].
inline Mat6 TransformArticulated(const Transform& x, const Mat6& IA) {
  const Mat3& E = x.E;
  const Mat3 A = E.transpose() * IA.topLeftCorner<3, 3>() * E;
  const Mat3 B = E.transpose() * IA.topRightCorner<3, 3>() * E;
  const Mat3 C = E.transpose() * IA.bottomRightCorner<3, 3>() * E;
  const Mat3 rx = Skew(x.r);
  const Mat3 B_plus = B + rx * C;
  Mat6 out;
  out.topLeftCorner<3, 3>() = A + rx * B.transpose() - B_plus * rx;
  out.topRightCorner<3, 3>() = B_plus;
  out.bottomLeftCorner<3, 3>() = B_plus.transpose();
  out.bottomRightCorner<3, 3>() = C;
  return out;
}

inline Force Multiply(const Mat6& I, const Motion& m) {
  return {I.topLeftCorner<3, 3>() * m.angular + I.topRightCorner<3, 3>() * m.linear,
          I.bottomLeftCorner<3, 3>() * m.angular + I.bottomRightCorner<3, 3>() * m.linear};
}

}  // namespace moreau::spatial

#endif  // MOREAU_ENGINE_SPATIAL_INERTIA_H_
