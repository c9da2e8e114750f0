#include "engine/step/workspace.h"

namespace moreau::step {

StepWorkspace MakeStepWorkspace(const Model& model) {
  StepWorkspace w;
  const int nq = model.nq, nv = model.nv;
  w.data = MakeData(model);
  w.contacts = contact::MakeContactSet(model);
  w.stage_states = contact::MakeContactStates(model);
  w.tau_total = Eigen::VectorXd::Zero(nv);
  w.h_contact = Eigen::VectorXd::Zero(nv);
  w.q_stage = Eigen::VectorXd::Zero(nq);
  w.v_stage = Eigen::VectorXd::Zero(nv);
  for (int k = 0; k < 4; ++k) {
    w.k_v[k] = Eigen::VectorXd::Zero(nv);
    w.k_a[k] = Eigen::VectorXd::Zero(nv);
  }
  w.v_sum = Eigen::VectorXd::Zero(nv);
  const int nc = static_cast<int>(model.contact_points.size());
  const int nl = kLoopRows * static_cast<int>(model.loop_closures.size());
  const int nb = model.nu() + nl;
  const int nt = 3 * nc + nb;
  w.max_contacts = nc;
  w.max_bilateral = nb;
  w.Y = Eigen::MatrixXd::Zero(nv, nt);
  w.Y_path = Eigen::MatrixXd::Zero(nv, 6 * nc);
  w.W_Lambda = Eigen::VectorXd::Zero(nv);
  w.support.assign(static_cast<size_t>(nc) * nv, 0);
  w.support_len.assign(nc, 0);
  w.G = Eigen::MatrixXd::Zero(nt, nt);
  w.c = Eigen::VectorXd::Zero(nt);
  w.gamma_S = Eigen::VectorXd::Zero(3 * nc);
  w.Lambda = Eigen::VectorXd::Zero(nt);
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
  w.u_free = Eigen::VectorXd::Zero(nv);
  w.h = Eigen::VectorXd::Zero(nv);
  w.active.assign(nc, 0);
  w.closed.assign(nc, 0);
  w.laws.assign(nc, contact::ContactLaw{});
  w.prox = contact::ProxSolver(nc, nb);
  w.qp = contact::QpSolver(3 * nc);
  w.qp_P = Eigen::MatrixXd::Zero(3 * nc, 3 * nc);
  w.qp_P2 = Eigen::MatrixXd::Zero(3 * nc, 3 * nc);
  w.qp_q = Eigen::VectorXd::Zero(3 * nc);
  w.qp_x = Eigen::VectorXd::Zero(3 * nc);
  w.qp_target = Eigen::VectorXd::Zero(3 * nc);
  w.qp_prev = Eigen::VectorXd::Zero(3 * nc);
  w.impact_Lambda = Eigen::VectorXd::Zero(3 * nc);
  w.friction_A = Eigen::MatrixXd::Zero(2 * nc, 2 * nc);
  w.friction_J = Eigen::MatrixXd::Zero(2 * nc, 2 * nc);
  w.friction_H = Eigen::MatrixXd::Zero(2, 2 * nc);
  w.friction_lu = Eigen::PartialPivLU<Eigen::MatrixXd>(2 * nc);
  for (Eigen::VectorXd* x : {&w.friction_c, &w.friction_v, &w.friction_phi, &w.friction_R,
                             &w.friction_step, &w.friction_trial}) {
    *x = Eigen::VectorXd::Zero(2 * nc);
  }
  w.friction_fn = Eigen::VectorXd::Zero(nc);
  w.friction_tau = Eigen::VectorXd::Zero(nv);
  w.friction_force.assign(nc, Vec3::Zero());
  w.qp_blocks.assign(3 * nc, contact::ConeBlock{});
  w.qp_select.assign(nc, 0);
  w.qp_kind.assign(nc, 0);
  w.qp_var.assign(nc, 0);
  w.qp_dir = Eigen::MatrixXd::Zero(3, 3 * nc);
  w.f_ext.assign(model.nbodies, Force::Zero());
  return w;
}

}  // namespace moreau::step
