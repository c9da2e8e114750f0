#include "engine/step/workspace.h"

namespace moreau::step {
namespace {

// nc contacts, nb bilateral rows.
ProxWorkspace MakeProxWorkspace(int nc, int nb) {
  ProxWorkspace w;
  w.laws.assign(nc, contact::ContactLaw{});
  w.solver = contact::ProxSolver(nc, nb);
  return w;
}

// nv DOFs, nb bilateral rows of which nl loop rows, nt rows in all.
BilateralWorkspace MakeBilateralWorkspace(int nv, int nb, int nl, int nt) {
  BilateralWorkspace w;
  w.B = Eigen::MatrixXd::Zero(nv, nb);
  w.row_support.assign(static_cast<size_t>(nb) * nv, 0);
  w.row_support_len.assign(nb, 0);
  w.dof_mark.assign(nv, 0);
  w.row_lo = Eigen::VectorXd::Zero(nb);
  w.row_hi = Eigen::VectorXd::Zero(nb);
  w.loop_J = Eigen::MatrixXd::Zero(kLoopRows, nv);
  w.loop_phi = Eigen::VectorXd::Zero(kLoopRows);
  w.G_LL = Eigen::MatrixXd::Zero(nl, nl);
  w.Z = Eigen::MatrixXd::Zero(nl, nt);
  w.z = Eigen::VectorXd::Zero(nl);
  w.ldlt = Eigen::LDLT<Eigen::MatrixXd>(nl);
  return w;
}

// nv DOFs, nc contacts (3 nc unknowns).
QpWorkspace MakeQpWorkspace(int nv, int nc) {
  QpWorkspace w;
  const int n = 3 * nc;
  w.solver = contact::QpSolver(n);
  w.P = Eigen::MatrixXd::Zero(n, n);
  w.P2 = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::VectorXd* x : {&w.q, &w.x, &w.target, &w.prev, &w.impact_Lambda}) {
    *x = Eigen::VectorXd::Zero(n);
  }
  w.blocks.assign(n, contact::ConeBlock{});
  w.select.assign(nc, 0);
  w.kind.assign(nc, 0);
  w.var.assign(nc, 0);
  w.dir = Eigen::MatrixXd::Zero(3, n);
  w.h_contact = Eigen::VectorXd::Zero(nv);
  return w;
}

ForceLawWorkspace MakeForceLawWorkspace(const Model& model) {
  ForceLawWorkspace w;
  w.stage_states = contact::MakeContactStates(model);
  w.q_stage = Eigen::VectorXd::Zero(model.nq);
  for (int k = 0; k < 4; ++k) {
    w.k_v[k] = Eigen::VectorXd::Zero(model.nv);
    w.k_a[k] = Eigen::VectorXd::Zero(model.nv);
  }
  w.v_sum = Eigen::VectorXd::Zero(model.nv);
  return w;
}

// nv DOFs, nc contacts (2 nc slip unknowns).
ImplicitFrictionWorkspace MakeImplicitFrictionWorkspace(int nv, int nc) {
  ImplicitFrictionWorkspace w;
  w.A = Eigen::MatrixXd::Zero(2 * nc, 2 * nc);
  w.J = Eigen::MatrixXd::Zero(2 * nc, 2 * nc);
  w.H = Eigen::MatrixXd::Zero(2, 2 * nc);
  w.lu = Eigen::PartialPivLU<Eigen::MatrixXd>(2 * nc);
  for (Eigen::VectorXd* x : {&w.c, &w.v, &w.phi, &w.R, &w.step, &w.trial}) {
    *x = Eigen::VectorXd::Zero(2 * nc);
  }
  w.fn = Eigen::VectorXd::Zero(nc);
  w.tau = Eigen::VectorXd::Zero(nv);
  w.force.assign(nc, Vec3::Zero());
  return w;
}

}  // namespace

StepWorkspace MakeStepWorkspace(const Model& model) {
  StepWorkspace w;
  const int nv = model.nv;
  const int nc = static_cast<int>(model.contact_points.size());
  const int nl = kLoopRows * static_cast<int>(model.loop_closures.size());
  const int nb = model.nu() + nl;
  const int nt = 3 * nc + nb;
  w.data = MakeData(model);
  w.h = Eigen::VectorXd::Zero(nv);
  w.tau_total = Eigen::VectorXd::Zero(nv);

  w.contacts = contact::MakeContactSet(model);
  w.max_contacts = nc;
  w.active.assign(nc, 0);
  w.closed.assign(nc, 0);
  w.support.assign(static_cast<size_t>(nc) * nv, 0);
  w.support_len.assign(nc, 0);

  w.max_bilateral = nb;
  w.Y = Eigen::MatrixXd::Zero(nv, nt);
  w.Y_path = Eigen::MatrixXd::Zero(nv, 6 * nc);
  w.G = Eigen::MatrixXd::Zero(nt, nt);
  w.W_Lambda = Eigen::VectorXd::Zero(nv);
  w.c = Eigen::VectorXd::Zero(nt);
  w.gamma_S = Eigen::VectorXd::Zero(3 * nc);
  w.Lambda = Eigen::VectorXd::Zero(nt);
  w.u_free = Eigen::VectorXd::Zero(nv);
  w.v_stage = Eigen::VectorXd::Zero(nv);

  w.prox = MakeProxWorkspace(nc, nb);
  w.bilateral = MakeBilateralWorkspace(nv, nb, nl, nt);
  w.qp = MakeQpWorkspace(nv, nc);
  w.force_law = MakeForceLawWorkspace(model);
  w.friction = MakeImplicitFrictionWorkspace(nv, nc);
  return w;
}

}  // namespace moreau::step
