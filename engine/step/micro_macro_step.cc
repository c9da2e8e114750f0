#include "engine/step/micro_macro_step.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/contact/contact_forces.h"
#include "engine/contact/contact_set.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/step/contact_activation.h"
#include "engine/step/delassus.h"
#include "engine/step/stages.h"
#include "engine/util/status_macros.h"

namespace moreau::step {
namespace {

constexpr int kStatic = 0;   // 003 set S: three unknowns, eq. 25, 30
constexpr int kKinetic = 1;  // 003 set K: one unknown Δf_ν, eq. 26, 31

}  // namespace

absl::Status Validate(const MicroMacroParams& p) {
  const absl::Status membrane = contact::Validate(p.membrane);
  if (!membrane.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("micro_macro.membrane: ", membrane.message()));
  }
  auto bad = [](const char* field, double value, const char* what) {
    return absl::InvalidArgumentError(
        absl::StrCat("micro_macro.", field, " must be ", what, ", got ", value));
  };
  if (!(p.restitution >= 0.0 && p.restitution <= 1.0)) {
    return bad("restitution", p.restitution, "in [0, 1]");
  }
  if (!(std::isfinite(p.mu_kinetic) && p.mu_kinetic >= 0.0)) {
    return bad("mu_kinetic", p.mu_kinetic, "finite and ≥ 0");
  }
  if (!(std::isfinite(p.mu_static) && p.mu_static >= p.mu_kinetic)) {
    return bad("mu_static", p.mu_static, "finite and ≥ mu_kinetic");
  }
  if (!(std::isfinite(p.lambda) && p.lambda > 0.0)) {
    return bad("lambda", p.lambda, "finite and > 0");
  }
  if (!(std::isfinite(p.slip_velocity) && p.slip_velocity > 0.0)) {
    return bad("slip_velocity", p.slip_velocity, "finite and > 0");
  }
  const absl::Status qp = contact::Validate(p.qp);
  if (!qp.ok()) return absl::InvalidArgumentError(absl::StrCat("micro_macro.", qp.message()));
  return absl::OkStatus();
}

void MembraneForces(const Model& model, const MicroMacroParams& params, double dt,
                    std::span<contact::ContactState> states, StepWorkspace& w) {
  // Step 4: the membrane forces (003 eq. 14, 7, 12) at every point touching
  // it (g_N ≤ 0), u_E = u + Σ_T K_i f_i (eq. 18).
  contact::ContactForceParams membrane;
  membrane.law = contact::ContactForceLaw::kMicro;
  membrane.micro = params.membrane;
  w.qp.h_contact.setZero();
  contact::ContactForcesOnPaths(model, w.data, membrane, dt, w.contacts, states, w.qp.h_contact);
  w.h += w.qp.h_contact;
}

void MacroContactSolve(const Model& model, const MicroMacroParams& params, double dt,
                       const ActiveSet& set, const Eigen::VectorXd& v, std::span<double> impulses,
                       StepWorkspace& w) {
  Data& data = w.data;
  const int nv = model.nv;
  const int nc = set.nc;
  // u_free = v + Δt H⁻¹ (u_E − b): v_i + v_Bi of eq. 23–24 is Wᵀ u_free.
  w.u_free = w.h * dt;
  SolveMassMatrix(data, w.u_free);
  w.u_free += v;

  int m = 0;
  for (int a = 0; a < nc; ++a) {
    const int k = w.active[a];
    const contact::Contact& ct = w.contacts.contacts[k];
    w.qp.var[a] = m;
    if (ct.velocity.norm() <= params.slip_velocity) {
      w.qp.kind[a] = kStatic;
      for (int l = 0; l < 3; ++l) {
        w.qp.dir.col(m + l) = Vec3::Unit(l);
        w.qp.x[m + l] = impulses[3 * k + l];
      }
      m += 3;
    } else {
      // Eq. 26: Δf_i = Δf_ν (ν − μ_K σ), σ the slip direction (eq. 7–8) in
      // the contact frame, 0 below ε.
      w.qp.kind[a] = kKinetic;
      const double slip = ct.gamma_T.norm();
      w.qp.dir(0, m) = 1.0;
      for (int t = 0; t < 2; ++t) {
        w.qp.dir(1 + t, m) =
            slip > params.slip_velocity ? -params.mu_kinetic * ct.gamma_T[t] / slip : 0.0;
      }
      w.qp.x[m] = impulses[3 * k];
      m += 1;
    }
  }
  w.contacts.num_active = nc;
  w.qp.last = contact::QpResult{0, true, 0.0};
  w.qp.last_impact = false;

  if (nc > 0) {
    const int n = 3 * nc;
    const auto [active, support, support_len] = ActiveContactsOf(w, nc, nv);
    // K_iᵀ H⁻¹ K_j blocks in the contact frames, and Wᵀ u_free.
    AssembleDelassus(data, w.contacts, active, support, support_len, w.Y.leftCols(0),
                     w.Y_path.leftCols(2 * n), w.G.topLeftCorner(n, n));
    ContactSpaceVelocity(data, w.contacts, active, support, support_len, w.u_free, w.c.head(n));
    // Eq. 30–32: A (m × m, in w.qp.P2) and v (m, in w.qp.target). Rows of a
    // static point: its three velocity components; of a kinetic point: the
    // normal one. Columns: the unknowns' contact-frame directions.
    auto rows_of = [&](int a) { return w.qp.kind[a] == kStatic ? 3 : 1; };
    for (int a = 0; a < nc; ++a) {
      const contact::Contact& ct = w.contacts.contacts[w.active[a]];
      const int ra = w.qp.var[a];
      for (int c = 0; c < nc; ++c) {
        for (int jc = 0; jc < rows_of(c); ++jc) {
          const int j = w.qp.var[c] + jc;
          const Vec3 col = w.G.block<3, 3>(3 * a, 3 * c) * w.qp.dir.col(j).head<3>();
          for (int r = 0; r < rows_of(a); ++r) w.qp.P2(ra + r, j) = col[r];
        }
      }
      // Right-hand sides: the velocity change that stops a static point
      // (eq. 25, 30), or gives the normal velocity −e v_ν (eq. 29, 31); a
      // point not yet touching may approach up to the surface.
      for (int r = 0; r < rows_of(a); ++r) w.qp.target[ra + r] = -w.c[3 * a + r];
      if (ct.gap > 0.0) {
        w.qp.target[ra] -= ct.gap / dt;
      } else if (w.qp.kind[a] == kKinetic) {
        w.qp.target[ra] -= params.restitution * ct.gamma_N;
      }
    }
    // Eq. 33: P = AᵀA + λ I, q = −Aᵀ v, with νᵢᵀΔfᵢ ≥ 0 (the first unknown of
    // each point) and the static tangential unknowns free.
    const auto A = w.qp.P2.topLeftCorner(m, m);
    w.qp.P.topLeftCorner(m, m).noalias() = A.transpose() * A;
    w.qp.P.topLeftCorner(m, m).diagonal().array() += params.lambda;
    w.qp.q.head(m).noalias() = -A.transpose() * w.qp.target.head(m);
    int nb = 0;
    for (int a = 0; a < nc; ++a) {
      w.qp.blocks[nb++] = {contact::ConeKind::kNonnegative, 0.0};
      if (w.qp.kind[a] == kStatic) {
        w.qp.blocks[nb++] = {contact::ConeKind::kFree, 0.0};
        w.qp.blocks[nb++] = {contact::ConeKind::kFree, 0.0};
      }
    }
    w.qp.last = w.qp.solver.Solve(params.qp, std::span(w.qp.blocks.data(), nb),
                                  w.qp.P.topLeftCorner(m, m), w.qp.q.head(m), w.qp.x.head(m));
    // Eq. 35–36: static friction beyond μ_S f_ν turns kinetic, μ_K f_ν in the
    // same direction; Λ per point in the contact frame.
    for (int a = 0; a < nc; ++a) {
      const int j = w.qp.var[a];
      if (w.qp.kind[a] == kStatic) {
        // f_ν: the point's whole normal force, membrane and macro (the
        // membrane carries the static load, see the header), as impulse.
        Vec3 L = w.qp.x.segment<3>(j);
        const contact::Contact& ct = w.contacts.contacts[w.active[a]];
        const double f_nu = L[0] + std::max(ct.force.dot(ct.normal), 0.0) * dt;
        const double f_phi = L.tail<2>().norm();
        if (f_phi > params.mu_static * f_nu) {
          L.tail<2>() *= f_phi > 0.0 ? params.mu_kinetic * f_nu / f_phi : 0.0;
        }
        w.Lambda.segment<3>(3 * a) = L;
      } else {
        w.Lambda.segment<3>(3 * a) = w.qp.x[j] * w.qp.dir.col(j);
      }
    }
    // Eq. 34 and step 8: f_i = Δf_i/Δt added to the membrane's.
    GeneralizedImpulse(data, w.contacts, active, support, support_len, w.Lambda.head(n),
                       w.W_Lambda);
    SolveMassMatrix(data, w.W_Lambda);
    w.u_free += w.W_Lambda;
    RecordContactImpulses(active, w.Lambda.head(n), dt, w.contacts, impulses);
  }
}

absl::Status MicroMacroStep(const Model& model, const contact::Terrain& terrain,
                            const MicroMacroParams& params, double dt, const StepInputs& inputs,
                            Eigen::VectorXd& q, Eigen::VectorXd& v,
                            std::span<contact::ContactState> states, std::span<double> impulses,
                            StepWorkspace& w) {
  // 003 §III-D steps 1–3: H, b, contact points, their velocities and K_i,
  // the velocities from the world joint axes (which also form K_i,
  // delassus.h).
  ForwardKinematics(model, w.data, q, v);
  MOREAU_RETURN_IF_ERROR(SmoothDynamics(model, w.data));
  Actuation(model, inputs, w);
  ComputeJointAxesWorld(model, w.data);
  ContactDetection(model, terrain, /*horizon=*/dt, w);
  contact::ComputeContactVelocitiesOnPaths(model, w.data, v, w.contacts);
  MembraneForces(model, params, dt, states, w);
  // Step 5: the macro set H (touching points and those about to touch),
  // split into static (‖v_i‖ ≤ ε) and kinetic points (eq. 25–26).
  const ActiveSet set = ActivateContacts(model, {.horizon = dt, .keep_forces = true}, impulses, w);
  MacroContactSolve(model, params, dt, set, v, impulses, w);
  // Step 9: semi-implicit Euler (003 §IV-A's first-order symplectic method).
  Integrate(model, dt, w, q, v);
  return absl::OkStatus();
}

}  // namespace moreau::step
